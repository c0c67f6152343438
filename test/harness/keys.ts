/**
 * The Idempotency-Keys the suites expect, computed by the uuid package (a second implementation of
 * UUID v5) from the rule in docs/idempotency.md: one action is one operation on one record for one
 * row, and a to-do's name. test/unit/action-keys.test.ts pins literal keys of this rule.
 */
import { v5 as uuidV5Reference } from 'uuid';

import { idempotencyHelpers } from '../node/package-modules';

const { IDEMPOTENCY_NAMESPACE } = idempotencyHelpers;

/** UUID v5 of "action", the method, the path, what tells the action apart (a to-do's name) and the row's identity. */
export const actionKey = (method: string, path: string, distinction: string, rowId: string) =>
	uuidV5Reference(['action', method, path, distinction, rowId].join('\n'), IDEMPOTENCY_NAMESPACE);

/** The key of a to-do named `name` on `asset` for the row `rowId`. */
export const todoKey = (asset: number | string, name: string, rowId: string) =>
	actionKey('POST', `/api/v1/assets/${asset}/todos`, name, rowId);

/** The key of an acquisition of `asset` for the row `rowId`. */
export const acquisitionKey = (asset: number | string, rowId: string) =>
	actionKey('POST', `/api/v1/assets/${asset}/acquisitions`, '', rowId);

/** The key of a billing change of `subscription` for the row `rowId`. */
export const billingKey = (subscription: number | string, rowId: string) =>
	actionKey('PUT', `/api/v1/subscriptions/${subscription}/billing`, '', rowId);

/** UUID v5 of "call", the method, the path and the body's canonical JSON: a tool call keyed by its arguments. */
export const callKey = (method: string, path: string, canonicalBody: string) =>
	uuidV5Reference(['call', method, path, canonicalBody].join('\n'), IDEMPOTENCY_NAMESPACE);
