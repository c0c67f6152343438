import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ItemFailure } from '../../model/itemFailure';
import { apiMessageOf, boundedText, excerpt, fieldReasons } from '../answers/answerBody';
import { answerWording, networkWording } from './failureWording';
import type { AnsweredFailure, Failure, ResultOf } from '../answers/attemptResult';
import { redact } from '../send/redact';
import { fateOf } from '../policy/rules';
import { redirectTarget } from '../answers/redirect';
import type { InventoryRequest } from '../request';

/** A request whose last attempt failed for good: what its item's error is made of. */
interface FailedAttempt<R extends Failure = Failure> {
	request: InventoryRequest;
	/** Retries spent, after the first attempt. */
	retries: number;
	result: R;
	/** The credential's Base URL, shown redacted. */
	baseUrl: string;
	/** The option named in the 429 advice: Fixed Concurrency or Max Automatic Concurrency. */
	concurrencyOption: string;
}

/** The longest field name of a per-field reason that is shown. */
const MAX_FIELD_NAME = 100;

/** A message names its item, as the node's own messages do: `… [po_number PO-1009, item 3]`. */
const ofItem = (message: string, request: InventoryRequest) => `${message} ${request.itemTag}`;

/** The item's error for an answer that is not a usable success. */
function answerError(node: INode, token: string, failed: FailedAttempt<AnsweredFailure>) {
	const { request, result } = failed;
	const fromApi = result.answeredBy === 'api';
	const apiMessage = apiMessageOf(result.body);
	// Every text of the answer is redacted before it is cut, and bounded: a 5 MB message stays short.
	const reason = apiMessage ? boundedText(apiMessage, token) : undefined;
	const reasons = Object.fromEntries(
		Object.entries(fieldReasons(result.body)).map(([field, text]) => [
			boundedText(field, token, MAX_FIELD_NAME),
			boundedText(text, token),
		]),
	);
	const wording = answerWording({
		result,
		request,
		retries: failed.retries,
		reason,
		excerpt: excerpt(result.body, token),
		problems: Object.entries(reasons).map(([field, text]) => `${field}: ${text}`),
		baseUrl: redact(failed.baseUrl, token),
		redirectTarget:
			result.kind === 'redirected'
				? redirectTarget(result.location, `${failed.baseUrl}${request.path}`, request.path, token)
				: undefined,
		concurrencyOption: failed.concurrencyOption,
	});
	const message = ofItem(wording.message, request);
	const httpCode = String(result.statusCode);
	const errorResponse: JsonObject = { httpCode, message };
	if (reason) errorResponse.apiMessage = reason;
	const error = new NodeApiError(node, errorResponse, {
		message,
		description: wording.description,
		httpCode,
		itemIndex: request.itemIndex,
	});
	return new ItemFailure(error, {
		status: result.statusCode,
		apiMessage: fromApi ? (reason ?? null) : null,
		reasons,
		fate: fateOf(result),
		idempotencyKey: request.idempotencyKey,
	});
}

/** The item's error when no answer came. */
function networkError(
	node: INode,
	token: string,
	failed: FailedAttempt<ResultOf<'networkFailure'>>,
) {
	const { request, result } = failed;
	const { failure } = result;
	const fate = fateOf(result);
	const wording = networkWording(failure, {
		what: failure.what ?? excerpt(failure.originalMessage ?? 'an error without a message', token),
		url: redact(failed.baseUrl, token),
		key: request.idempotencyKey,
		retries: failed.retries,
		fate,
	});
	const message = ofItem(wording.message, request);
	const error = new NodeApiError(
		node,
		{ networkCode: failure.code, message },
		{ message, description: wording.description, itemIndex: request.itemIndex },
	);
	return new ItemFailure(error, {
		status: null,
		apiMessage: null,
		reasons: {},
		fate,
		idempotencyKey: request.idempotencyKey,
	});
}

/** The item's error for a request whose last attempt failed for good; the token never appears in it. */
export function itemError(node: INode, token: string, failed: FailedAttempt): ItemFailure {
	const { result } = failed;
	return result.kind === 'networkFailure'
		? networkError(node, token, { ...failed, result })
		: answerError(node, token, { ...failed, result });
}

/** The item's error for a request whose body cannot be written as JSON: nothing was sent. */
export function unsendableError(
	node: INode,
	request: InventoryRequest,
	{ field, reason }: { field: string; reason: string },
): ItemFailure {
	const message = ofItem(
		`The request's ${field} cannot be sent as JSON (${reason}): nothing was sent`,
		request,
	);
	const error = new NodeApiError(
		node,
		{ message },
		{
			message,
			description: `Give ${field} values that JSON can write: no value nested deeper than a few levels, none that contains itself. Nothing was sent to the Inventory API.`,
			itemIndex: request.itemIndex,
		},
	);
	return new ItemFailure(error, {
		status: null,
		apiMessage: null,
		reasons: { [field]: `cannot be sent as JSON (${reason})` },
		fate: 'notSent',
		idempotencyKey: request.idempotencyKey,
	});
}
