/*
 * What the node takes for its credential's Base URL: the address as pasted, reduced to the service's,
 * and what makes one unusable, in words that say how to fix it.
 */

/**
 * The Base URL as users paste it, reduced to the service's address: spaces and trailing slashes
 * dropped, and a trailing `/api/v1` (how many APIs print their address) taken as the base, since the
 * node appends `/api/v1/...` itself.
 */
export function normalizeBaseUrl(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')
		.replace(/\/+$/, '');
}

/** Whether a normalized Base URL is an http(s) address with a host. */
export function isHttpAddress(baseUrl: string): boolean {
	return /^https?:\/\/[^/]/i.test(baseUrl);
}

const ADDRESS_EXAMPLE = 'e.g. https://inventory.example.com';

/**
 * What is wrong with a normalized Base URL that starts with http(s)://, with its fix; undefined when
 * it is an address the node can append `/api/v1/...` to. User info would make n8n's HTTP client send
 * Basic authentication instead of the token (and a dry run would show the password); a query or a
 * fragment would end up before the path (`/?tenant=acme/api/v1/...`) or swallow it (`#x/api/v1/...`).
 * The texts never show the user info.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return `is no valid address (a space or another character a host name cannot hold, or a port above 65535): nothing was sent. Enter the address of your Inventory service, ${ADDRESS_EXAMPLE}`;
	}
	if (url.username !== '' || url.password !== '')
		return `holds a user name or password before the host (user:password@): nothing was sent, since the API takes only the API Token. Remove that part, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	if (url.search !== '' || baseUrl.includes('?'))
		return `holds a query (?...): nothing was sent, since the node appends /api/v1/... to the address and the query would end up in front of it. Remove the query, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	if (url.hash !== '' || baseUrl.includes('#'))
		return `holds a fragment (#...): nothing was sent, since the node appends /api/v1/... to the address and the fragment would swallow it. Remove it, e.g. ${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	return undefined;
}
