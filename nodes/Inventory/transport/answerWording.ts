import { bodyKind } from './answerBody';
import type { AnsweredFailure, ResultOf } from './attemptResult';
import {
	earlierAttemptInFlightWording,
	keyInFlightWording,
	keyReusedWording,
	recordConflictWording,
} from './conflictWording';
import {
	apiSaidSentence,
	reasonAfterColon,
	retriesText,
	type RedactedAnswer,
	type Wording,
} from './wording';

/** What each status the API refuses a request with means for the user, and what to do about it. */
const REFUSAL_BY_STATUS: Record<number, (answer: RedactedAnswer) => Wording> = {
	401: ({ reason }) => ({
		message: `The Inventory API rejected the API token (401)${reasonAfterColon(reason ?? 'it is missing, expired, revoked or not a customer API token')}`,
		description:
			'The API refuses a token that is missing, expired, revoked or not a customer API token. Open the "Inventory API" credential of this node and enter a valid customer API token of your organization (its Test button checks it).',
	}),
	403: ({ request, reason }) => ({
		message: `The API token lacks the permission this operation needs: ${request.permission} (403)`,
		description: `Give the token the "${request.permission}" permission (or administrator access where that is required), or use a token that has it.${apiSaidSentence(reason)}`,
	}),
	404: ({ request, reason }) => ({
		message: `${request.recordLabel} was not found in this token's organization (404)`,
		description: `Check the ID: records of other organizations are reported as not found. If every item fails so, check the credential's Base URL (its Test button tells).${apiSaidSentence(reason)}`,
	}),
	409: recordConflictWording,
	422: ({ reason, problems }) => ({
		message: `The Inventory API rejected the input (422)${reasonAfterColon(reason)}`,
		description: problems.length
			? `Fields with problems: ${problems.join('; ')}`
			: 'Check the values of this item.',
	}),
};

function refusalWording(answer: RedactedAnswer): Wording {
	const { statusCode } = answer.result;
	const byStatus = REFUSAL_BY_STATUS[statusCode];
	if (byStatus) return byStatus(answer);
	return {
		message: `The Inventory API answered ${statusCode}${reasonAfterColon(answer.reason)}`,
		description: answer.excerpt || undefined,
	};
}

const CHECK_BASE_URL = (baseUrl: string) =>
	`Open the "Inventory API" credential of this node and check its Base URL (${baseUrl || 'empty'}): it must be the address of your Inventory service, e.g. https://inventory.example.com (a trailing /api/v1 is fine). The credential's Test button tells whether it leads to the Inventory API.`;

const answerBegan = ({ excerpt }: RedactedAnswer) =>
	excerpt ? ` The answer began with: ${excerpt}` : '';

/** A gateway's own answer for the service behind it (429, 502, 503, 504 with a page of its own). */
function gatewayWording(answer: RedactedAnswer): Wording {
	const { result, baseUrl, retries } = answer;
	return {
		message: `The server at the credential's Base URL answered ${result.statusCode} with ${bodyKind(result.body)}, not the Inventory API's JSON, after ${retriesText(retries)}`,
		description: `A proxy or gateway in front of the service may be failing; a retry sends the same Idempotency-Key (${answer.request.idempotencyKey}). If this persists: ${CHECK_BASE_URL(baseUrl)}${answerBegan(answer)}`,
	};
}

/** An answer that is not the Inventory API's: the Base URL leads elsewhere. */
function notTheApiWording(answer: RedactedAnswer<ResultOf<'notTheApi'>>): Wording {
	const { result, baseUrl } = answer;
	const { statusCode, anonymousStatus } = result;
	if (anonymousStatus !== undefined) {
		return {
			message: `The credential's Base URL does not lead to the Inventory API: it answered ${statusCode}${answer.reason ? ` ("${answer.reason}")` : ''}, and ${anonymousStatus} to a request without a token, where the Inventory API answers 401`,
			description: `${CHECK_BASE_URL(baseUrl)} Nothing reached the Inventory API.`,
		};
	}
	return {
		message: `The server at the credential's Base URL answered ${statusCode} with ${bodyKind(result.body)}, not the Inventory API's JSON`,
		description: `${CHECK_BASE_URL(baseUrl)} Nothing reached the Inventory API.${answerBegan(answer)}`,
	};
}

type WordingTable = {
	[K in AnsweredFailure['kind']]: (answer: RedactedAnswer<ResultOf<K>>) => Wording;
};

/** What each kind of failed answer means for the user, and what to do about it. */
const WORDING: WordingTable = {
	rateLimited: (answer) => {
		const { result, retries, concurrencyOption } = answer;
		if (result.answeredBy !== 'api') return gatewayWording(answer);
		const { retryAfterMs } = result;
		return {
			message: `The Inventory API rate limit was reached (429) and persisted after ${retriesText(retries)}`,
			description: `Lower the node's ${concurrencyOption} option or raise Max Retries / Max Retry Wait in its options.${retryAfterMs !== undefined ? ` The API asked to wait ${Math.ceil(retryAfterMs / 1000)} s.` : ''}`,
		};
	},
	serverError: (answer) =>
		answer.result.answeredBy === 'api'
			? {
					message: `The Inventory API failed (${answer.result.statusCode}) after ${retriesText(answer.retries)}`,
					description: answer.reason ?? answer.excerpt,
				}
			: gatewayWording(answer),
	earlierAttemptInFlight: earlierAttemptInFlightWording,
	keyInFlight: keyInFlightWording,
	keyReused: keyReusedWording,
	rejected: refusalWording,
	notTheApi: notTheApiWording,
};

/** The words of a failed answer. */
export function answerWording(answer: RedactedAnswer): Wording {
	const word = WORDING[answer.result.kind] as (answer: RedactedAnswer) => Wording;
	return word(answer);
}
