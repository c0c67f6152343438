/**
 * Modules of the built package that tests check against, loaded from dist/ like the node itself; the
 * source gives them their types only (type imports are erased).
 */
import type * as CredentialModule from '../../credentials/InventoryApi.credentials';
import type * as IdempotencyHelpers from '../../nodes/Inventory/helpers/idempotency';
import { fromDist } from '../harness/engine';

export const credentialModule = fromDist(
	'./credentials/InventoryApi.credentials.js',
) as typeof CredentialModule;

export const idempotencyHelpers = fromDist(
	'./nodes/Inventory/helpers/idempotency.js',
) as typeof IdempotencyHelpers;
