import { listedFirst } from '../../model/listedFirst';
import { recordLabel } from '../../model/record';
import { bodyKind } from '../answers/answerBody';
import { isCertificateFailure, type NetworkFailure } from '../answers/networkFailure';
import type { AnsweredFailure, ResultOf } from '../answers/attemptResult';
import {
	earlierAttemptInFlightWording,
	keyInFlightWording,
	keyReusedWording,
	recordConflictWording,
} from './conflictWording';
import { redirectAdvice } from '../answers/redirect';
import type { RequestFate } from '../../model/itemFailure';
import type { Wording } from '../request';
import { apiSaidSentence, reasonAfterColon, retriesText, type RedactedAnswer } from './pieces';

/*
 * The words of a request that failed for good: of each kind of failed answer (WORDING, and the 409s'
 * in conflictWording.ts), and of no answer (networkWording).
 */

/** The per-field problems a 422's description lists; `details.reasons` holds them all. */
const MAX_PROBLEMS_SHOWN = 10;

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
		message: `${recordLabel(request.record)} was not found in this token's organization (404)`,
		description: `Check the ID: records of other organizations are reported as not found. If every item fails so, check the credential's Base URL (its Test button tells).${apiSaidSentence(reason)}`,
	}),
	409: recordConflictWording,
	422: ({ reason, problems }) => ({
		message: `The Inventory API rejected the input (422)${reasonAfterColon(reason)}`,
		description: problems.length
			? `Fields with problems: ${listedFirst(problems, MAX_PROBLEMS_SHOWN, '; ')}${problems.length > MAX_PROBLEMS_SHOWN ? ' (in details.reasons)' : ''}`
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

/** A 3xx: the server at the Base URL points elsewhere; nothing was sent there. */
function redirectedWording(answer: RedactedAnswer<ResultOf<'redirected'>>): Wording {
	const { result, redirectTarget } = answer;
	return {
		message: `The server at the credential's Base URL answered ${result.statusCode}, a redirect to ${redirectTarget ?? 'an address it did not name'}, which the node does not follow: nothing was booked`,
		description: `Nothing reached the Inventory API: the node follows no redirect, so neither the request nor the API Token went to that address. ${redirectAdvice(redirectTarget)}`,
	};
}

/** A 2xx without the API's `data` object from a server that may be the API: it may have been applied. */
function successWithoutDataWording(
	answer: RedactedAnswer<ResultOf<'successWithoutData'>>,
): Wording {
	const { result, request } = answer;
	return {
		message: `The server at the credential's Base URL answered ${result.statusCode} with ${bodyKind(result.body)}, without the Inventory API's "data" object: the request may have been applied`,
		description: `It answers a request without a token as the Inventory API does, or did not answer it, so it may be the API: the request may have reached it and been applied. The same Idempotency-Key (${request.idempotencyKey}) replays it, so Retry On Fail or Retry execution never books it twice; check the record before booking it another way.${answerBegan(answer)}`,
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
	redirected: redirectedWording,
	successWithoutData: successWithoutDataWording,
};

/** The words of a failed answer. */
export function answerWording(answer: RedactedAnswer): Wording {
	const word = WORDING[answer.result.kind] as (answer: RedactedAnswer) => Wording;
	return word(answer);
}

/**
 * The words of a request that got no answer. `what`: what happened, redacted; `url`: the Base URL,
 * redacted; `key`: the Idempotency-Key that replays it.
 */
export function networkWording(
	failure: NetworkFailure,
	told: { what: string; url: string; key: string; retries: number; fate: RequestFate },
): Wording {
	const { what, url, key, retries } = told;
	let message: string;
	if (!failure.retryable) message = `The request to the Inventory API failed: ${what}`;
	else if (failure.fateUnknown)
		message = `No answer from the Inventory API after ${retriesText(retries)}: ${what}`;
	else message = `Could not reach the Inventory API after ${retriesText(retries)}: ${what}`;

	const check = isCertificateFailure(failure.code)
		? `The server at ${url} uses a certificate n8n does not trust (self-signed or from a private certificate authority). Give n8n the authority's certificate with the environment variable NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)" in the credential.`
		: `Network failure ${failure.code}. Check the Base URL of the credential (${url}) and the network between n8n and the service.`;
	const fate =
		told.fate === 'mayHaveBeenApplied'
			? `The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`
			: `Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key (${key}).`;
	return { message, description: `${check} ${fate}` };
}
