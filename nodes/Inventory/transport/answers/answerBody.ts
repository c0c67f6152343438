import type { IDataObject } from 'n8n-workflow';

import { redact } from '../send/redact';

/*
 * What an answer's body holds. The contract makes every response JSON, wraps every success in a
 * `data` object and gives every error body a `message`. Anything else (an HTML page, a text, an empty
 * body, JSON of another shape) comes from something else at the Base URL: a web server, another
 * service, a proxy with a page of its own.
 */

/** A JSON object, also when it arrived as text (a server that does not say it sends JSON). */
function jsonObject(body: unknown): Record<string, unknown> | undefined {
	let value = body;
	if (typeof value === 'string' && /^\s*\{/.test(value)) {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	return value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/** The response's `data` object, when the body is the API's success envelope. */
export function successData(body: unknown): IDataObject | undefined {
	const data = (body as { data?: unknown } | undefined)?.data;
	if (body && typeof body === 'object' && data && typeof data === 'object' && !Array.isArray(data))
		return data as IDataObject;
	return undefined;
}

/** The body of an error answer of the Inventory API: a JSON object with a `message`. */
export function apiErrorBody(body: unknown): { message: string; errors?: unknown } | undefined {
	const object = jsonObject(body);
	return object && typeof object.message === 'string'
		? (object as { message: string; errors?: unknown })
		: undefined;
}

/** The `message` of an error body of the API, when it is one. */
export function apiMessageOf(body: unknown): string | undefined {
	return apiErrorBody(body)?.message;
}

/** What a body that is not the API's is, in words. */
export function bodyKind(body: unknown): string {
	if (body === undefined || body === '') return 'an empty body';
	if (typeof body !== 'string' && !Buffer.isBuffer(body)) return 'JSON of another shape';
	const text = Buffer.isBuffer(body) ? body.toString('utf8', 0, 2000) : String(body);
	if (jsonObject(text)) return 'JSON of another shape';
	if (/^\s*</.test(text) || /<html|<!doctype/i.test(text)) return 'an HTML page';
	return text.trim() === '' ? 'an empty body' : 'a text';
}

const MAX_EXCERPT = 300;

/** The start of a body, on one line, for a message; the token redacted first, so no cut leaves a piece of it. */
export function excerpt(body: unknown, token: string): string {
	let text: string;
	if (typeof body === 'string') text = body;
	else if (Buffer.isBuffer(body))
		// Enough bytes for the excerpt's characters and a token that begins inside them.
		text = body.toString('utf8', 0, MAX_EXCERPT * 4 + token.length * 6);
	else {
		try {
			text = JSON.stringify(body) ?? '';
		} catch {
			text = String(body);
		}
	}
	text = redact(text, token).replace(/\s+/g, ' ').trim();
	return text.length > MAX_EXCERPT
		? `${text.slice(0, MAX_EXCERPT)}… (${text.length} characters)`
		: text;
}

/** The longest text of the API (a message, a field's reason) a message or `details` shows. */
export const MAX_API_TEXT = 500;

/**
 * A text of the API for a message or `details`: the token redacted first, then at most `max`
 * characters, a longer one cut with how long it was (a 5 MB message stays a short one).
 */
export function boundedText(text: string, token: string, max = MAX_API_TEXT): string {
	const redacted = redact(text, token);
	return redacted.length > max
		? `${redacted.slice(0, max)}… (${redacted.length} characters)`
		: redacted;
}

const MAX_REASONS = 50;
const MAX_DEPTH = 6;

/** Collects the problems under `value` as [dotted path, text] pairs; nested objects and lists become paths. */
function collectProblems(value: unknown, path: string, into: Array<[string, string]>, depth = 0) {
	if (into.length >= MAX_REASONS) return;
	if (Array.isArray(value)) {
		const texts: string[] = [];
		value.forEach((entry, index) => {
			if (entry && typeof entry === 'object' && depth < MAX_DEPTH)
				collectProblems(entry, path ? `${path}.${index}` : String(index), into, depth + 1);
			else texts.push(String(entry));
		});
		if (texts.length > 0) into.push([path, texts.join(' ')]);
	} else if (value && typeof value === 'object' && depth < MAX_DEPTH) {
		for (const [key, entry] of Object.entries(value))
			collectProblems(entry, path ? `${path}.${key}` : key, into, depth + 1);
	} else if (value !== undefined) {
		into.push([path, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
	}
}

/** The per-field problems of a 422 body's `errors` object, nested ones as dotted paths (`field_values.5`). */
export function fieldReasons(body: unknown): Record<string, string> {
	const errors = apiErrorBody(body)?.errors;
	if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
	const pairs: Array<[string, string]> = [];
	collectProblems(errors, '', pairs);
	return Object.fromEntries(pairs);
}
