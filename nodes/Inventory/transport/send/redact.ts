/**
 * Removes the token from any text that could reach a message, output or log: the token as it was sent
 * and as JSON writes it (a body that quotes the header escapes `"` and `\\`). Apply it before any cut,
 * so that no cut can leave a piece of the token behind.
 */
export function redact(text: string, secret: string): string {
	if (secret.length < 4) return text;
	let redacted = text.split(secret).join('[redacted]');
	const asJson = JSON.stringify(secret).slice(1, -1);
	if (asJson !== secret) redacted = redacted.split(asJson).join('[redacted]');
	return redacted;
}

/** `value` with the token redacted in every string, object key included (an answer's body, before anything reads it). */
export function redactDeep(value: unknown, secret: string, depth = 0): unknown {
	if (secret.length < 4) return value;
	if (typeof value === 'string') return redact(value, secret);
	if (Buffer.isBuffer(value)) {
		const text = value.toString('latin1');
		return text.includes(secret) ? Buffer.from(redact(text, secret), 'latin1') : value;
	}
	if (!value || typeof value !== 'object') return value;
	if (depth > 100) {
		// Deeper than any answer of the API: redacted as its JSON text, or not shown at all.
		try {
			return JSON.parse(redact(JSON.stringify(value), secret)) as unknown;
		} catch {
			return '[not shown: nested too deeply]';
		}
	}
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secret, depth + 1));
	return Object.fromEntries(
		Object.entries(value as Record<string, unknown>).map(([key, entry]) => [
			redact(key, secret),
			redactDeep(entry, secret, depth + 1),
		]),
	);
}
