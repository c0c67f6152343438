import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import type { SeedData } from '../types';

/**
 * The seed.json beside the sandbox's package.json, found from dist/domain/ (the package and its CLI),
 * src/domain/ (ts-jest) or build/sandbox/src/domain/ (the demo, compiled with the dev code it runs in).
 */
export const DEFAULT_SEED_FILE =
	[
		resolve(__dirname, '..', '..', 'seed.json'),
		resolve(__dirname, '..', '..', '..', '..', 'sandbox', 'seed.json'),
	].find((file) => existsSync(file)) ?? resolve(__dirname, '..', '..', 'seed.json');

export function loadSeedFile(file: string = DEFAULT_SEED_FILE): SeedData {
	const parsed = parseJson(readSeedText(file), file);
	validateSeed(parsed, file);
	return parsed;
}

function readSeedText(file: string): string {
	let problem: string;
	try {
		return readFileSync(file, 'utf8');
	} catch (error) {
		problem = (error as Error).message;
	}
	throw new Error(`Cannot read seed file ${file}: ${problem}`);
}

function parseJson(text: string, file: string): unknown {
	let problem: string;
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		problem = (error as Error).message;
	}
	throw new Error(`Seed file ${file} is not valid JSON: ${problem}`);
}

function fail(where: string, message: string): never {
	throw new Error(`Invalid seed (${where}): ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkIdList(list: unknown, where: string, seen: Set<string>, space: string): void {
	if (!Array.isArray(list)) fail(where, 'must be an array');
	for (const item of list) {
		if (!isObject(item) || !Number.isInteger(item.id) || (item.id as number) <= 0) {
			fail(where, `every entry needs a positive integer id (got ${JSON.stringify(item)})`);
		}
		const k = `${space}:${item.id as number}`;
		if (seen.has(k)) fail(where, `duplicate ${space} id ${item.id as number}`);
		seen.add(k);
	}
}

function isTimestamp(v: unknown): boolean {
	return typeof v === 'string' && !Number.isNaN(Date.parse(v));
}

/** Structural checks with readable messages, so a hand-edited seed file fails loudly at start. */
export function validateSeed(data: unknown, where = 'seed'): asserts data is SeedData {
	if (!isObject(data)) fail(where, 'top level must be an object');
	if (!Array.isArray(data.organizations) || data.organizations.length === 0) {
		fail(where, 'organizations must be a non-empty array');
	}
	if (!Array.isArray(data.tokens)) fail(where, 'tokens must be an array');
	const seen = new Set<string>();
	const orgIds = new Set<number>();
	checkIdList(data.organizations, `${where}: organizations`, seen, 'organization');
	for (const org of data.organizations as Record<string, unknown>[]) {
		const w = `${where}: organization ${org.id as number}`;
		orgIds.add(org.id as number);
		if (typeof org.name !== 'string') fail(w, 'name must be a string');
		if (
			!isObject(org.plan) ||
			!(org.plan.max_reactivations === null || Number.isInteger(org.plan.max_reactivations))
		) {
			fail(w, 'plan.max_reactivations must be an integer or null');
		}
		checkIdList(org.users, `${w} users`, seen, 'user/person');
		checkIdList(org.people, `${w} people`, seen, 'user/person');
		checkIdList(org.assets, `${w} assets`, seen, 'asset');
		checkIdList(org.subscriptions, `${w} subscriptions`, seen, 'subscription');
		checkIdList(org.event_types, `${w} event_types`, seen, 'event type');
		for (const a of org.assets as Record<string, unknown>[]) {
			if (a.status !== 'available' && a.status !== 'decommissioned') {
				fail(`${w} asset ${a.id as number}`, 'status must be available or decommissioned');
			}
			if (!isTimestamp(a.last_state_change_at))
				fail(`${w} asset ${a.id as number}`, 'last_state_change_at must be a timestamp');
		}
		for (const s of org.subscriptions as Record<string, unknown>[]) {
			const sw = `${w} subscription ${s.id as number}`;
			if (s.price_model !== 'lump_sum' && s.price_model !== 'per_license')
				fail(sw, 'price_model must be lump_sum or per_license');
			if (typeof s.cost !== 'number') fail(sw, 'cost must be a number');
			if (typeof s.billing_frequency !== 'string') fail(sw, 'billing_frequency must be a string');
			if (!isTimestamp(s.last_state_change_at))
				fail(sw, 'last_state_change_at must be a timestamp');
		}
		for (const t of org.event_types as Record<string, unknown>[]) {
			const tw = `${w} event type ${t.id as number}`;
			if (typeof t.acquisition !== 'boolean') fail(tw, 'acquisition must be a boolean');
			if (t.fields !== undefined) {
				checkIdList(t.fields, `${tw} fields`, seen, 'custom field');
				for (const f of t.fields as Record<string, unknown>[]) {
					if (
						!['text', 'number', 'date', 'select', 'multi_select', 'checkbox'].includes(
							f.datatype as string,
						)
					) {
						fail(
							`${tw} field ${f.id as number}`,
							'datatype must be text, number, date, select, multi_select or checkbox',
						);
					}
					if (
						(f.datatype === 'select' || f.datatype === 'multi_select') &&
						!Array.isArray(f.options)
					) {
						fail(`${tw} field ${f.id as number}`, 'select fields need options');
					}
				}
			}
		}
	}
	const tokens = new Set<string>();
	for (const t of data.tokens as unknown[]) {
		if (!isObject(t) || typeof t.token !== 'string' || t.token.length === 0)
			fail(`${where}: tokens`, 'every token needs a token string');
		if (tokens.has(t.token as string))
			fail(`${where}: tokens`, `duplicate token ${t.token as string}`);
		tokens.add(t.token as string);
		if (!orgIds.has(t.organization_id as number))
			fail(`${where}: token ${t.token as string}`, 'unknown organization_id');
		if (!Number.isInteger(t.user_id))
			fail(`${where}: token ${t.token as string}`, 'user_id must be an integer');
		if (!Array.isArray(t.permissions))
			fail(`${where}: token ${t.token as string}`, 'permissions must be an array');
		if (t.expires_at !== undefined && t.expires_at !== null && !isTimestamp(t.expires_at)) {
			fail(`${where}: token ${t.token as string}`, 'expires_at must be a timestamp or null');
		}
	}
}
