/**
 * Who is calling: the customer API token of an API request (401 otherwise) and the admin token of
 * the /_sandbox endpoints. Both read the Authorization header through bearerToken.
 */
import type { IncomingMessage } from 'node:http';

import { bearerToken, headerValue, type Reply } from './request';
import { errorBody } from '../domain/results';
import type { SeedToken } from '../types';
import type { Org } from '../domain/records';
import type { World } from '../domain/world';

export type Authentication = { ok: true; token: SeedToken; org: Org } | { ok: false; reply: Reply };

/** The token and its organization, or the 401 that says why the token is refused. */
export function authenticate(req: IncomingMessage, world: World, now: Date): Authentication {
	const refuse = (message: string): Authentication => ({
		ok: false,
		reply: { status: 401, body: errorBody(message), headers: { 'WWW-Authenticate': 'Bearer' } },
	});
	if (!headerValue(req, 'authorization'))
		return refuse('Unauthenticated: the Authorization header is missing.');
	const presented = bearerToken(req);
	const token = presented === null ? undefined : world.tokens.get(presented);
	if (!token) return refuse('Unauthenticated: the token is invalid.');
	if (token.kind !== 'customer_api')
		return refuse('Unauthenticated: the token is not a customer API token.');
	if (token.revoked) return refuse('Unauthenticated: the token has been revoked.');
	if (token.expires_at && Date.parse(token.expires_at) <= now.getTime())
		return refuse('Unauthenticated: the token has expired.');
	const org = world.orgs.get(token.organization_id);
	if (!org) return refuse('Unauthenticated: the token is invalid.');
	return { ok: true, token, org };
}

export function isAdmin(req: IncomingMessage, adminToken: string): boolean {
	return bearerToken(req) === adminToken;
}
