import { DateTime } from 'luxon';

export type DateParseResult = { ok: true; value: DateTime } | { ok: false };

function isDateTimeLike(value: object): value is { toISO(): string | null } {
	return typeof (value as { toISO?: unknown }).toISO === 'function';
}

/**
 * Reads what a dateTime parameter can hold: the picker's local "YYYY-MM-DDThh:mm:ss" (taken in the
 * workflow's time zone), an ISO string with an offset, a date-only string, a Luxon DateTime or a JS
 * Date from an expression. The result is in the workflow's time zone.
 */
export function parseDateInput(value: unknown, timeZone: string): DateParseResult {
	let parsed: DateTime | undefined;
	if (typeof value === 'string') {
		const text = value.trim();
		if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return { ok: false };
		parsed = DateTime.fromISO(text, { zone: timeZone, setZone: false });
	} else if (value instanceof Date) {
		parsed = DateTime.fromJSDate(value, { zone: timeZone });
	} else if (typeof value === 'object' && value !== null && isDateTimeLike(value)) {
		const iso = value.toISO();
		if (typeof iso === 'string') parsed = DateTime.fromISO(iso, { zone: timeZone });
	}
	if (!parsed?.isValid) return { ok: false };
	return { ok: true, value: parsed.setZone(timeZone) };
}

/** `YYYY-MM-DD`, the calendar date in the workflow's time zone. */
export function formatDate(value: DateTime): string {
	return value.toFormat('yyyy-MM-dd');
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm`: seconds and an explicit offset, never `Z`, no fraction. */
export function formatTimestamp(value: DateTime): string {
	return value.set({ millisecond: 0 }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
