import { redact } from '../send/redact';

/*
 * The node and its credential test follow no redirect: n8n's HTTP helper would send the credential to
 * the redirect's target, even on another host, and a 301/302/303 would turn the write into a GET with
 * no body whose 200 would look like a booking. A 3xx is its own outcome, and its words name where the
 * server pointed, so that the user can make that address the Base URL.
 */

/** Whether a status is a redirect (3xx): its target is never asked. */
export function isRedirectStatus(statusCode: number): boolean {
	return statusCode >= 300 && statusCode < 400;
}

/** The `Location` header of an answer, when it has one. */
export function locationOf(headers: unknown): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		if (name.toLowerCase() !== 'location') continue;
		const first: unknown = Array.isArray(value) ? value[0] : value;
		return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
	}
	return undefined;
}

const MAX_SHOWN = 200;

/**
 * Where a redirect pointed, as its words show it: the Base URL to use when the target is the request's
 * own path at another address (the target with the path taken off), else the target's origin. Never
 * its user info, query or fragment, at most 200 characters never the token.
 */
export function redirectTarget(
	location: string | undefined,
	requestUrl: string,
	requestPath: string,
	token: string,
): string | undefined {
	if (location === undefined) return undefined;
	let target: URL;
	try {
		target = new URL(location, requestUrl);
	} catch {
		return undefined;
	}
	if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
	const path = target.pathname.replace(/\/+$/, '');
	const base = path.toLowerCase().endsWith(requestPath.toLowerCase())
		? `${target.origin}${path.slice(0, path.length - requestPath.length)}`
		: target.origin;
	const shown = redact(base, token);
	return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}…` : shown;
}

/** The sentence after a redirect: where it pointed and what to do, or how to find out. */
export function redirectAdvice(target: string | undefined): string {
	return target !== undefined
		? `If that is your Inventory service, enter ${target} as the credential's Base URL.`
		: "It named no usable target (Location): open the Base URL in a browser to see where it leads, and enter that address as the credential's Base URL.";
}
