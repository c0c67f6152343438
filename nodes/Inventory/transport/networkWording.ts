import { isCertificateFailure, type NetworkFailure } from './networkFailure';
import type { RequestFate } from '../model/itemFailure';
import { retriesText, type Wording } from './wording';

/**
 * The words of a request that got no answer. `what`: what happened, redacted; `url`: the Base URL,
 * redacted; `key`: the Idempotency-Key that replays it.
 */
export function networkWording(
	failure: NetworkFailure,
	told: { what: string; url: string; key: string; retries: number; fate: RequestFate },
): Wording {
	const { what, url, key, retries } = told;
	let message: string;
	if (!failure.retryable) message = `The request to the Inventory API failed: ${what}`;
	else if (failure.fateUnknown)
		message = `No answer from the Inventory API after ${retriesText(retries)}: ${what}`;
	else message = `Could not reach the Inventory API after ${retriesText(retries)}: ${what}`;

	const check = isCertificateFailure(failure.code)
		? `The server at ${url} uses a certificate n8n does not trust (self-signed or from a private certificate authority). Give n8n the authority's certificate with the environment variable NODE_EXTRA_CA_CERTS, or turn on "Ignore SSL Issues (Insecure)" in the credential.`
		: `Network failure ${failure.code}. Check the Base URL of the credential (${url}) and the network between n8n and the service.`;
	const fate =
		told.fate === 'mayHaveBeenApplied'
			? `The request may have reached the API and been applied. The same Idempotency-Key (${key}) replays it, so Retry On Fail or Retry execution is safe: it never creates a second record.`
			: `Nothing was sent to the Inventory API; a retry sends the same Idempotency-Key (${key}).`;
	return { message, description: `${check} ${fate}` };
}
