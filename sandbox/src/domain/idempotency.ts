/**
 * Idempotency-Key handling: completed actions are stored with a fingerprint of method, path and
 * body (canonical JSON); keys of requests still being processed are held in flight.
 * Keys are scoped per organization and lower-cased (a UUID is case-insensitive).
 */
import { createHash } from 'node:crypto';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** JSON with object keys sorted at every level, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const obj = value as Record<string, unknown>;
		const keys = Object.keys(obj).sort();
		return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** Fingerprint of method, path and body. An empty body counts as {}; a non-JSON body by its raw text. */
export function fingerprint(method: string, path: string, bodyText: string): string {
	let canonical: string;
	if (bodyText.trim() === '') canonical = '{}';
	else {
		try {
			canonical = canonicalJson(JSON.parse(bodyText));
		} catch {
			canonical = `raw:${bodyText}`;
		}
	}
	return createHash('sha256')
		.update(`${method.toUpperCase()}\n${path}\n${canonical}`)
		.digest('hex');
}

export interface StoredResponse {
	organizationId: number;
	key: string;
	fingerprint: string;
	method: string;
	path: string;
	status: number;
	bodyText: string;
	storedAt: string;
}

export class IdempotencyStore {
	private readonly completed = new Map<string, StoredResponse>();
	private readonly inFlight = new Map<string, string>();

	private id(organizationId: number, key: string): string {
		return `${organizationId}:${key.toLowerCase()}`;
	}

	get(organizationId: number, key: string): StoredResponse | undefined {
		return this.completed.get(this.id(organizationId, key));
	}

	isInFlight(organizationId: number, key: string): boolean {
		return this.inFlight.has(this.id(organizationId, key));
	}

	begin(organizationId: number, key: string, fp: string): void {
		this.inFlight.set(this.id(organizationId, key), fp);
	}

	end(organizationId: number, key: string): void {
		this.inFlight.delete(this.id(organizationId, key));
	}

	store(entry: StoredResponse): void {
		this.completed.set(this.id(entry.organizationId, entry.key), entry);
	}

	entries(): StoredResponse[] {
		return [...this.completed.values()];
	}

	clear(): void {
		this.completed.clear();
		this.inFlight.clear();
	}
}
