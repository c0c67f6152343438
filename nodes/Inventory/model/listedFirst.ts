/** How many items a message lists by name (failing rows, rows sent before a failure, blank rows); the rest it counts. */
export const LISTED_ITEMS = 10;

/**
 * The first `limit` texts of a list, then how many more: `0, 1, 2 and 9 more`, or with `; ` between
 * them `a; b; and 3 more`.
 */
export function listedFirst(texts: readonly string[], limit: number, separator = ', '): string {
	const shown = texts.slice(0, limit).join(separator);
	const rest = texts.length - limit;
	if (rest <= 0) return shown;
	return `${shown}${separator === ', ' ? '' : separator.trimEnd()} and ${rest} more`;
}

/** Item indexes as a message lists them: the first LISTED_ITEMS, then how many more (`0, 1, 2 and 9 more`). */
export const listedIndexes = (indexes: readonly number[]): string =>
	listedFirst(indexes.map(String), LISTED_ITEMS);
