import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LISTED_ITEMS, listedFirst, listedIndexes } from '../model/listedFirst';
import { repeatCountsInWords, type RepeatCheck } from './answeredKeys';

/** Adds a paragraph to an error's description. */
function withParagraph(
	error: NodeApiError | NodeOperationError,
	paragraph: string,
): NodeApiError | NodeOperationError {
	error.description = error.description ? `${error.description}\n\n${paragraph}` : paragraph;
	return error;
}

/**
 * Adds to the error that stops the run the other rows that failed with it (sent at the same time,
 * before the first failure stopped the rest): each by its message, which names the row (the first
 * ten, then how many more).
 */
export function withOtherFailures(
	error: NodeApiError | NodeOperationError,
	others: Array<NodeApiError | NodeOperationError>,
): NodeApiError | NodeOperationError {
	if (others.length === 0) return error;
	const rows = others.length === 1 ? '1 other row' : `${others.length} other rows`;
	const listed = listedFirst(
		others.map(({ message }) => message),
		LISTED_ITEMS,
		'; ',
	);
	return withParagraph(error, `${rows} of this run failed too: ${listed}.`);
}

/**
 * Adds to the error that stops the run what happened to the other rows: how many went through, and
 * what Retry execution and a new run do with them.
 */
export function withRunSummary(
	error: NodeApiError | NodeOperationError,
	sentItems: number[],
	keyedByData: boolean,
	counts?: Record<RepeatCheck['outcome'], number>,
): NodeApiError | NodeOperationError {
	if (sentItems.length === 0) return error;
	const rows = sentItems.length === 1 ? '1 other row' : `${sentItems.length} other rows`;
	const split = counts ? ` (${repeatCountsInWords(counts)})` : '';
	const [they, them, are] = sentItems.length === 1 ? ['It', 'it', 'is'] : ['They', 'them', 'are'];
	const next = keyedByData
		? `${they} ${are} keyed by your data: Retry execution, or running the workflow again, replays ${them} instead of booking ${them} twice, and sends the rest.`
		: `Retry execution replays ${them} and sends the rest; running the workflow again (or Execute step) books ${them} again.`;
	const summary = `Before this failure, ${rows} of this run went through${split}: item${sentItems.length === 1 ? '' : 's'} ${listedIndexes(sentItems)}. ${next}`;
	return withParagraph(error, summary);
}
