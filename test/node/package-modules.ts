/**
 * Modules of the built package that tests check against, loaded from dist/ like the node itself; the
 * source gives them their types only (type imports are erased).
 */
import type * as CredentialModule from '../../credentials/InventoryApi.credentials';
import type * as DateHelpers from '../../nodes/Inventory/helpers/dates';
import type * as IdempotencyHelpers from '../../nodes/Inventory/helpers/idempotency';
import type * as NumberHelpers from '../../nodes/Inventory/helpers/numbers';
import type * as ValidationHelpers from '../../nodes/Inventory/helpers/validation';
import type * as TransportConnection from '../../nodes/Inventory/transport/connection';
import type * as TransportCredentialTest from '../../nodes/Inventory/transport/credentialTest';
import type * as TransportErrors from '../../nodes/Inventory/transport/errors';
import type * as TransportFailures from '../../nodes/Inventory/transport/failures';
import type * as TransportRetry from '../../nodes/Inventory/transport/retry';
import { fromDist } from '../harness/engine';

export const credentialModule = fromDist(
	'./credentials/InventoryApi.credentials.js',
) as typeof CredentialModule;

export const idempotencyHelpers = fromDist(
	'./nodes/Inventory/helpers/idempotency.js',
) as typeof IdempotencyHelpers;

export const dateHelpers = fromDist('./nodes/Inventory/helpers/dates.js') as typeof DateHelpers;

export const numberHelpers = fromDist(
	'./nodes/Inventory/helpers/numbers.js',
) as typeof NumberHelpers;

export const validationHelpers = fromDist(
	'./nodes/Inventory/helpers/validation.js',
) as typeof ValidationHelpers;

export const transportFailures = fromDist(
	'./nodes/Inventory/transport/failures.js',
) as typeof TransportFailures;

export const transportErrors = fromDist(
	'./nodes/Inventory/transport/errors.js',
) as typeof TransportErrors;

export const transportRetry = fromDist(
	'./nodes/Inventory/transport/retry.js',
) as typeof TransportRetry;

export const transportCredentialTest = fromDist(
	'./nodes/Inventory/transport/credentialTest.js',
) as typeof TransportCredentialTest;

export const transportConnection = fromDist(
	'./nodes/Inventory/transport/connection.js',
) as typeof TransportConnection;
