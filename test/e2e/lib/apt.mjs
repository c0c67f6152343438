// Debian packages the e2e suites need (chromium, redis-server, postgresql), installed with apt-get
// when missing. Needs root; otherwise a clear error saying what to install.
import { log, mustRun } from './util.mjs';

let updated = false;

/** apt-get install -y <packages> (one `apt-get update` per run); `what` names them in errors. */
export async function aptInstall(packages, { what = packages.join(' '), recommends = false } = {}) {
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${what} is missing and this is not root: install it (sudo apt-get install -y ${packages.join(' ')})`,
		);
	}
	log(`installing ${packages.join(' ')} with apt-get`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	if (!updated) {
		await mustRun('apt-get', ['update'], { env, timeoutMs: 5 * 60_000 });
		updated = true;
	}
	await mustRun(
		'apt-get',
		['install', '-y', ...(recommends ? [] : ['--no-install-recommends']), ...packages],
		{ env, timeoutMs: 10 * 60_000 },
	);
}
