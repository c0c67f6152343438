/**
 * Modules of the built package that tests check against, loaded from dist/ like the node itself; the
 * source gives them their types only (type imports are erased).
 */
import type * as CredentialModule from '../../credentials/InventoryApi.credentials';
import type * as DateHelpers from '../../nodes/Inventory/values/dates/readDate';
import type * as IdempotencyHelpers from '../../nodes/Inventory/idempotency/keys';
import type * as IdempotencyKeyText from '../../nodes/Inventory/idempotency/keyText';
import type * as NumberHelpers from '../../nodes/Inventory/values/numbers/numberText';
import type * as ValidationHelpers from '../../nodes/Inventory/values/checks';
import type * as ShownTextHelpers from '../../nodes/Inventory/values/shownText';
import type * as TransportConnection from '../../nodes/Inventory/transport/credential/baseUrl';
import type * as TransportCredentialTest from '../../nodes/Inventory/transport/credential/checkCredential';
import type * as TransportAnswerBody from '../../nodes/Inventory/transport/answers/answerBody';
import type * as TransportAttemptResult from '../../nodes/Inventory/transport/answers/attemptResult';
import type * as TransportErrors from '../../nodes/Inventory/transport/wording/itemError';
import type * as TransportNetworkFailure from '../../nodes/Inventory/transport/answers/networkFailure';
import type * as TransportRules from '../../nodes/Inventory/transport/policy/rules';
import { fromDist } from '../harness/engine';

export const credentialModule = fromDist(
	'./credentials/InventoryApi.credentials.js',
) as typeof CredentialModule;

/** The key's derivation (keys.js) and the text its rows' keys are made of (keyText.js). */
export const idempotencyHelpers = {
	...(fromDist('./nodes/Inventory/idempotency/keys.js') as typeof IdempotencyHelpers),
	...(fromDist('./nodes/Inventory/idempotency/keyText.js') as typeof IdempotencyKeyText),
};

export const dateHelpers = fromDist(
	'./nodes/Inventory/values/dates/readDate.js',
) as typeof DateHelpers;

export const numberHelpers = fromDist(
	'./nodes/Inventory/values/numbers/numberText.js',
) as typeof NumberHelpers;

export const validationHelpers = fromDist(
	'./nodes/Inventory/values/checks.js',
) as typeof ValidationHelpers;

export const shownTextHelpers = fromDist(
	'./nodes/Inventory/values/shownText.js',
) as typeof ShownTextHelpers;

export const transportAnswerBody = fromDist(
	'./nodes/Inventory/transport/answers/answerBody.js',
) as typeof TransportAnswerBody;

export const transportAttemptResult = fromDist(
	'./nodes/Inventory/transport/answers/attemptResult.js',
) as typeof TransportAttemptResult;

export const transportNetworkFailure = fromDist(
	'./nodes/Inventory/transport/answers/networkFailure.js',
) as typeof TransportNetworkFailure;

export const transportErrors = fromDist(
	'./nodes/Inventory/transport/wording/itemError.js',
) as typeof TransportErrors;

/** The retry, rate and fate tables: one file, policy/rules.ts. */
export const transportRules = fromDist(
	'./nodes/Inventory/transport/policy/rules.js',
) as typeof TransportRules;
export const transportRetry = transportRules;
export const transportRateOutcome = transportRules;
export const transportFate = transportRules;

/** Retry-After is read where an answer is (answers/attemptResult.ts, classifyAnswer). */
export const transportRetryAfter = transportAttemptResult;

export const transportCredentialTest = fromDist(
	'./nodes/Inventory/transport/credential/checkCredential.js',
) as typeof TransportCredentialTest;

export const transportConnection = fromDist(
	'./nodes/Inventory/transport/credential/baseUrl.js',
) as typeof TransportConnection;
