/**
 * HTTPS for the sandbox: a self-signed certificate for localhost and 127.0.0.1, made at start with
 * the openssl command line (no npm dependency) and valid for two days.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private key and its certificate, both PEM. */
export interface TlsKeyAndCertificate {
	key: string;
	cert: string;
}

export function makeSelfSignedCertificate(): TlsKeyAndCertificate {
	const dir = mkdtempSync(join(tmpdir(), 'inventory-sandbox-tls-'));
	const keyFile = join(dir, 'key.pem');
	const certFile = join(dir, 'cert.pem');
	let problem: string;
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:prime256v1',
				'-nodes',
				'-days',
				'2',
				'-subj',
				'/CN=localhost',
				'-addext',
				'subjectAltName=DNS:localhost,IP:127.0.0.1',
				'-keyout',
				keyFile,
				'-out',
				certFile,
			],
			{ stdio: ['ignore', 'ignore', 'pipe'] },
		);
		return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
	} catch (error) {
		problem = describeFailure(error as NodeJS.ErrnoException & { stderr?: Buffer });
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	throw new Error(problem);
}

function describeFailure(failure: NodeJS.ErrnoException & { stderr?: Buffer }): string {
	if (failure.code === 'ENOENT' && failure.syscall?.startsWith('spawn'))
		return 'tls: true makes a self-signed certificate with the openssl command line, which was not found on PATH; install openssl, or pass tls: { key, cert }';
	const reason = failure.stderr?.toString().trim() || failure.message;
	return `openssl could not make the self-signed certificate: ${reason}`;
}
