import type { IDataObject } from 'n8n-workflow';

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === wanted)
			return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
	headers: IDataObject | undefined,
	now = Date.now(),
): number | undefined {
	const value = headerValue(headers, 'retry-after');
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	// An HTTP-date names its day or month; Date.parse alone would take "-5" for the year -5.
	const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}
