/** How names separate their words as sheets, forms and APIs write them: spaces, underscores or hyphens. */
export const WORD_SEPARATORS = /[\s_-]+/g;

/**
 * An option as it is compared: by its API value ("per_license", "Quarterly") or its name in the form
 * ("Per License"), in any letter case, its words separated by spaces, underscores or hyphens.
 */
export const optionWords = (text: string) =>
	text.trim().toLowerCase().replace(WORD_SEPARATORS, ' ');
