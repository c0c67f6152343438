import type { AnsweredFailure } from '../answers/attemptResult';
import type { InventoryRequest } from '../request';

/*
 * What the words of a failure are made of: the failed answer as they may show it, and the sentence
 * pieces every wording uses.
 */

/** A failed answer as its words may show it: the API's reason, the body's start and the field problems redacted. */
export interface RedactedAnswer<R extends AnsweredFailure = AnsweredFailure> {
	result: R;
	request: InventoryRequest;
	/** Retries spent, after the first attempt. */
	retries: number;
	/** The API's message. */
	reason?: string;
	/** The start of the body, on one line. */
	excerpt: string;
	/** The API's per-field problems, as `field: text`. */
	problems: string[];
	/** The credential's Base URL, named when the answer is not the API's. */
	baseUrl: string;
	/** Where a redirect pointed, as the Base URL to use (answers/redirect.ts); undefined for any other answer. */
	redirectTarget?: string;
	/** The option named in the 429 advice: Fixed Concurrency or Max Automatic Concurrency. */
	concurrencyOption: string;
}

export const retriesText = (count: number) => `${count} ${count === 1 ? 'retry' : 'retries'}`;

/** The API's reason as a last sentence, or nothing. */
export const apiSaidSentence = (reason?: string) => (reason ? ` The API said: ${reason}` : '');

/** The API's reason after a colon, or nothing. */
export const reasonAfterColon = (reason?: string) => (reason ? `: ${reason}` : '');
