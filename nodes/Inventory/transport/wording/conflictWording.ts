import { recordLabel } from '../../model/record';
import type { ResultOf } from '../answers/attemptResult';
import { networkCodeWords } from '../answers/networkFailure';
import type { Wording } from '../request';
import { apiSaidSentence, reasonAfterColon, retriesText, type RedactedAnswer } from './pieces';

/*
 * The words of a 409, by its reading (answers/attemptResult.ts): an earlier attempt or another request with
 * the key still in flight, a key reused for other values, or a conflict with the record itself.
 */

/** A timestamp in an API message, e.g. the record's last change in a 409 about the event date. */
const TIMESTAMP_IN_TEXT =
	/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/;

const RECORD_STATE =
	'The record changed or is in a state that does not allow this action. Refresh the record and try again.';

/** The message of a 409 whose words need no more than the API's reason. */
const refusedChange = (reason?: string) =>
	`The Inventory API refused the change (409)${reasonAfterColon(reason)}`;

/**
 * A 409 for an event date earlier than a newer change of the record: refreshing the record changes
 * nothing, so the message shows the Event Date that was sent, and the fix is a later one.
 */
function eventDateWording({ request, reason }: RedactedAnswer): Wording | undefined {
	const sent = request.body.event_date;
	if (typeof sent !== 'string') return undefined;
	const lastChange = TIMESTAMP_IN_TEXT.exec(reason ?? '')?.[0];
	const epoch = sent.startsWith('1970-')
		? " A date in 1970 is what a small number read as a Unix time gives, e.g. a spreadsheet's day number (46346 for 2026-11-20) converted with DateTime.fromSeconds: check the expression that gives Event Date."
		: '';
	return {
		message: `The Event Date sent, ${sent}, is before the last change of ${recordLabel(request.record)}${lastChange ? ` (${lastChange})` : ''}: the Inventory API refused it (409)`,
		description: `An event cannot be dated before a later change of its record, so refreshing the record changes nothing: give a later Event Date${lastChange ? `, at or after ${lastChange}` : ''}, or leave Event Date empty to date the event now.${epoch}${lastChange ? '' : apiSaidSentence(reason)}`,
	};
}

/** A 409 of the record itself: its state, or an event date before its last change. */
export function recordConflictWording(answer: RedactedAnswer): Wording {
	const recordState = { message: refusedChange(answer.reason), description: RECORD_STATE };
	const { result } = answer;
	if (result.kind === 'rejected' && result.conflict === 'eventDate')
		return eventDateWording(answer) ?? recordState;
	return recordState;
}

/**
 * A 409 for a key used before with other values: the first booking stands. A row's key says why in
 * the words of where it comes from (request.whenKeyReused); any other key in these.
 */
export function keyReusedWording({ request, reason }: RedactedAnswer): Wording {
	const rowWords = request.whenKeyReused?.();
	if (rowWords)
		return { ...rowWords, description: `${rowWords.description ?? ''}${apiSaidSentence(reason)}` };
	return {
		message: refusedChange(reason),
		description: `The Idempotency-Key ${request.idempotencyKey} was already used for a different request, and the first booking with it stands. If you edited this node and then retried an old execution, run the workflow anew instead.`,
	};
}

/** A 409 answering a retry whose earlier attempt got no answer: that attempt is still being applied. */
export function earlierAttemptInFlightWording({
	request,
	reason,
	retries,
	result,
}: RedactedAnswer<ResultOf<'earlierAttemptInFlight'>>): Wording {
	return {
		message: `The Inventory API is still processing an earlier attempt of this request (409) after ${retriesText(retries)}`,
		description: `An earlier attempt got no answer (${networkCodeWords(result.unansweredCode) ?? 'the connection failed'}) and the server still reports the request as in progress${reason ? ` ("${reason}")` : ''}. The Idempotency-Key ${request.idempotencyKey} is safe to retry: a retry (Retry On Fail, or n8n's Retry execution) replays the result once the server has finished, and never creates a second record. If the server is often this slow, raise the Timeout or Max Retries option.`,
	};
}

/** A 409 for another request with the same key that is still under way. */
export function keyInFlightWording({ request, reason }: RedactedAnswer): Wording {
	return {
		message: refusedChange(reason),
		description: `Another request with the same Idempotency-Key (${request.idempotencyKey}) is still being processed, e.g. the same row sent by another execution at the same moment. The key is safe to retry: once that request has finished, a retry replays its result.`,
	};
}
