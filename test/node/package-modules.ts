/**
 * Modules of the built package that tests check against, loaded from dist/ like the node itself; the
 * source gives them their types only (type imports are erased).
 */
import type * as CredentialModule from '../../credentials/InventoryApi.credentials';
import type * as DateHelpers from '../../nodes/Inventory/values/dates';
import type * as IdempotencyHelpers from '../../nodes/Inventory/idempotency/keys';
import type * as NumberHelpers from '../../nodes/Inventory/values/numbers';
import type * as ValidationHelpers from '../../nodes/Inventory/values/checks';
import type * as ShownTextHelpers from '../../nodes/Inventory/values/shownText';
import type * as TransportConnection from '../../nodes/Inventory/transport/connection';
import type * as TransportCredentialTest from '../../nodes/Inventory/transport/checkCredential';
import type * as TransportAnswerBody from '../../nodes/Inventory/transport/answerBody';
import type * as TransportAttemptResult from '../../nodes/Inventory/transport/attemptResult';
import type * as TransportErrors from '../../nodes/Inventory/transport/itemError';
import type * as TransportFate from '../../nodes/Inventory/transport/fate';
import type * as TransportNetworkFailure from '../../nodes/Inventory/transport/networkFailure';
import type * as TransportRateOutcome from '../../nodes/Inventory/transport/rateOutcome';
import type * as TransportRetry from '../../nodes/Inventory/transport/retry';
import type * as TransportRetryAfter from '../../nodes/Inventory/transport/retryAfter';
import { fromDist } from '../harness/engine';

export const credentialModule = fromDist(
	'./credentials/InventoryApi.credentials.js',
) as typeof CredentialModule;

export const idempotencyHelpers = fromDist(
	'./nodes/Inventory/idempotency/keys.js',
) as typeof IdempotencyHelpers;

export const dateHelpers = fromDist('./nodes/Inventory/values/dates.js') as typeof DateHelpers;

export const numberHelpers = fromDist(
	'./nodes/Inventory/values/numbers.js',
) as typeof NumberHelpers;

export const validationHelpers = fromDist(
	'./nodes/Inventory/values/checks.js',
) as typeof ValidationHelpers;

export const shownTextHelpers = fromDist(
	'./nodes/Inventory/values/shownText.js',
) as typeof ShownTextHelpers;

export const transportAnswerBody = fromDist(
	'./nodes/Inventory/transport/answerBody.js',
) as typeof TransportAnswerBody;

export const transportAttemptResult = fromDist(
	'./nodes/Inventory/transport/attemptResult.js',
) as typeof TransportAttemptResult;

export const transportNetworkFailure = fromDist(
	'./nodes/Inventory/transport/networkFailure.js',
) as typeof TransportNetworkFailure;

export const transportRateOutcome = fromDist(
	'./nodes/Inventory/transport/rateOutcome.js',
) as typeof TransportRateOutcome;

export const transportFate = fromDist(
	'./nodes/Inventory/transport/fate.js',
) as typeof TransportFate;

export const transportErrors = fromDist(
	'./nodes/Inventory/transport/itemError.js',
) as typeof TransportErrors;

export const transportRetry = fromDist(
	'./nodes/Inventory/transport/retry.js',
) as typeof TransportRetry;

export const transportRetryAfter = fromDist(
	'./nodes/Inventory/transport/retryAfter.js',
) as typeof TransportRetryAfter;

export const transportCredentialTest = fromDist(
	'./nodes/Inventory/transport/checkCredential.js',
) as typeof TransportCredentialTest;

export const transportConnection = fromDist(
	'./nodes/Inventory/transport/connection.js',
) as typeof TransportConnection;
