import type { AttemptOutcome } from '../../scheduling/throttle';
import { applyRule, type AttemptResult, type RuleTable } from '../answers/attemptResult';

const answered = (): AttemptOutcome => 'answered';

/**
 * How the rate counts each kind of result: the server took the request (`answered`), held it back
 * (`throttled`), failed (which says nothing of its speed), or gave no answer.
 */
const RATE_OUTCOME: RuleTable<AttemptOutcome> = {
	success: answered,
	rateLimited: () => 'throttled',
	serverError: () => 'failed',
	earlierAttemptInFlight: answered,
	keyInFlight: answered,
	keyReused: answered,
	rejected: answered,
	notTheApi: ({ statusCode }) => (statusCode >= 500 ? 'failed' : 'answered'),
	redirected: answered,
	successWithoutData: answered,
	networkFailure: () => 'unanswered',
};

export function rateOutcome(result: AttemptResult): AttemptOutcome {
	return applyRule(RATE_OUTCOME, result);
}
