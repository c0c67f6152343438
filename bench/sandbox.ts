/** The sandbox in its own process (build/sandbox/src/cli.js), driven through its /_sandbox endpoints. */
import axios, { type AxiosInstance } from 'axios';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { FaultConfig, SandboxState } from '../sandbox/src';
import { TOKENS } from '../test/fixtures';
import { packageRoot } from '../tools/n8n/engine';

export const TOKEN = TOKENS.fullAccess;
const ADMIN_TOKEN = 'bench-admin';

export interface Sandbox {
	baseUrl: string;
	admin: AxiosInstance;
	reset(): Promise<void>;
	setFaults(faults: FaultConfig | null): Promise<void>;
	state(): Promise<SandboxState>;
	stop(): void;
}

export async function startSandboxProcess(): Promise<Sandbox> {
	const cli = join(packageRoot(), 'build', 'sandbox', 'src', 'cli.js');
	const child: ChildProcess = spawn(
		process.execPath,
		[
			cli,
			'--port',
			'0',
			'--quiet',
			'--admin-token',
			ADMIN_TOKEN,
			'--seed',
			join(packageRoot(), 'sandbox', 'seed.json'),
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let out = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const match = /base URL\s+(\S+)/.exec(out);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	child.stdout?.resume();
	const admin = axios.create({
		baseURL: baseUrl,
		headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
	});
	return {
		baseUrl,
		admin,
		reset: async () => void (await admin.post('/_sandbox/reset')),
		setFaults: async (faults) =>
			void (faults
				? await admin.put('/_sandbox/faults', faults)
				: await admin.delete('/_sandbox/faults')),
		state: async () => (await admin.get<SandboxState>('/_sandbox/state')).data,
		stop: () => void child.kill('SIGTERM'),
	};
}
