import type { RequestFate } from '../model/itemFailure';
import { applyRule, type Failure, type RuleTable } from './attemptResult';

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
