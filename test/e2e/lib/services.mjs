// The services n8n's queue mode needs: Redis (the job queue) and PostgreSQL (the database shared by
// main and workers). Debian's packages, installed with apt-get when missing; each run starts its own
// server on a free loopback port with its data under the $TMPDIR/n8n-nodes-inventory-e2e, stopped at exit.
import fs from 'node:fs';
import path from 'node:path';

import { aptInstall } from './apt.mjs';
import { cleanEnv, freePort, mustRun, spawnService, stopService, tail, waitFor } from './util.mjs';

const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';

function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return null;
	const versions = fs
		.readdirSync(root)
		.filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : null;
}

/** redis-server and PostgreSQL present, or installed with apt-get; returns what was installed. */
export async function ensureServices() {
	const missing = [];
	if (!fs.existsSync(REDIS_SERVER)) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length) await aptInstall(missing);
	if (!fs.existsSync(REDIS_SERVER))
		throw new Error(`apt-get install redis-server did not provide ${REDIS_SERVER}`);
	const pgBin = postgresBinDir();
	if (!pgBin)
		throw new Error(
			'apt-get install postgresql did not provide /usr/lib/postgresql/<version>/bin/postgres',
		);
	return { installed: missing, pgBin };
}

export class Redis {
	async start({ dir, port }) {
		this.port = port ?? (await freePort());
		this.host = '127.0.0.1';
		fs.mkdirSync(dir, { recursive: true });
		const logFile = path.join(dir, 'redis.log');
		const args = [
			'--port',
			String(this.port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		];
		this.service = spawnService('redis', REDIS_SERVER, args, {
			env: cleanEnv(),
			cwd: dir,
			logFile,
		});
		await waitFor(
			`redis-server on 127.0.0.1:${this.port}`,
			async () => {
				if (this.service.exited)
					throw new Error(`redis-server exited (${this.service.exitCode}):\n${tail(logFile)}`);
				const r = await mustRun(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(this.port), 'ping'], {
					timeoutMs: 5000,
				});
				return r.stdout.trim() === 'PONG';
			},
			{ timeoutMs: 30_000, intervalMs: 200 },
		);
		return this;
	}

	async stop() {
		await stopService(this.service);
	}
}

/**
 * A throwaway PostgreSQL cluster: initdb (trust auth, user `postgres`) into `dir`, the server run
 * as the `postgres` OS user (it refuses root) in the foreground, listening on 127.0.0.1 only, its
 * socket in `dir`. n8n uses the `postgres` database.
 */
export class Postgres {
	async start({ dir, pgBin, port }) {
		this.port = port ?? (await freePort());
		this.host = '127.0.0.1';
		this.user = 'postgres';
		this.database = 'postgres';
		const dataDir = path.join(dir, 'data');
		fs.mkdirSync(dir, { recursive: true });
		const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
		if (asPostgres.length) await mustRun('chown', ['-R', 'postgres:postgres', dir]);
		if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
			const initdb = [
				...asPostgres,
				path.join(pgBin, 'initdb'),
				'-D',
				dataDir,
				'-U',
				'postgres',
				'--auth=trust',
				'--encoding=UTF8',
				'--no-sync',
			];
			await mustRun(initdb[0], initdb.slice(1), { env: cleanEnv(), timeoutMs: 120_000 });
		}
		const logFile = path.join(dir, 'postgres.log');
		const server = [
			...asPostgres,
			path.join(pgBin, 'postgres'),
			'-D',
			dataDir,
			'-p',
			String(this.port),
			'-k',
			dir,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'max_connections=100',
		];
		this.service = spawnService('postgres', server[0], server.slice(1), {
			env: cleanEnv(),
			cwd: dir,
			logFile,
		});
		await waitFor(
			`postgres on 127.0.0.1:${this.port}`,
			async () => {
				if (this.service.exited)
					throw new Error(`postgres exited (${this.service.exitCode}):\n${tail(logFile)}`);
				const r = await mustRun(
					path.join(pgBin, 'pg_isready'),
					['-h', '127.0.0.1', '-p', String(this.port)],
					{ timeoutMs: 5000 },
				).catch(() => null);
				return r !== null;
			},
			{ timeoutMs: 60_000, intervalMs: 250 },
		);
		return this;
	}

	/** The DB_* environment of an n8n process using this server. */
	n8nEnv() {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: this.host,
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: '',
		};
	}

	async stop() {
		await stopService(this.service, { timeoutMs: 15_000 });
	}
}
