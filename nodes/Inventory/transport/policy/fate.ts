import { applyRule, type Failure, type RuleTable } from '../answers/attemptResult';

/** What is known of a failed request's fate, as the error item reports it. */
export type RequestFate =
	/** It never reached the Inventory API (not sent, or sent to a server that is not the API): nothing applied. */
	| 'notSent'
	/** The API answered and refused it: nothing applied. */
	| 'rejected'
	/** It may have been applied (no answer, a server failure, an attempt still in progress): the same key replays it. */
	| 'mayHaveBeenApplied';

export const FATE_WORDS: Readonly<Record<RequestFate, string>> = {
	notSent: 'The request never reached the Inventory API: nothing was applied.',
	rejected: 'The Inventory API refused the request: nothing was applied.',
	mayHaveBeenApplied:
		'The request may have reached the Inventory API and been applied; the same Idempotency-Key replays it instead of applying it twice.',
};

/**
 * The fate `fate` tells of this attempt, unless an earlier attempt got no answer: that one may have
 * been applied. (A refusal that read the key, a 409 or another 4xx, rules it out; a 429 does not.)
 */
const unlessEarlierUnanswered =
	<R extends Failure>(fate: (result: R) => RequestFate) =>
	(result: R): RequestFate =>
		result.earlierUnanswered ? 'mayHaveBeenApplied' : fate(result);

/** What is known of the request's fate when its last attempt had this kind of result. */
const FATE: RuleTable<RequestFate, Failure['kind']> = {
	rateLimited: unlessEarlierUnanswered(({ answeredBy }) =>
		answeredBy === 'api' ? 'rejected' : 'notSent',
	),
	serverError: () => 'mayHaveBeenApplied',
	earlierAttemptInFlight: () => 'mayHaveBeenApplied',
	keyInFlight: () => 'mayHaveBeenApplied',
	keyReused: () => 'rejected',
	rejected: () => 'rejected',
	notTheApi: unlessEarlierUnanswered(() => 'notSent'),
	// The server at the Base URL only pointed elsewhere, and nothing was sent there.
	redirected: unlessEarlierUnanswered(() => 'notSent'),
	// A success status: the API may have applied it, only its answer cannot be read.
	successWithoutData: () => 'mayHaveBeenApplied',
	networkFailure: unlessEarlierUnanswered(({ failure }) =>
		failure.fateUnknown ? 'mayHaveBeenApplied' : 'notSent',
	),
};

/** The fate of a request whose last attempt had this result. */
export function fateOf(result: Failure): RequestFate {
	return applyRule(FATE, result);
}
