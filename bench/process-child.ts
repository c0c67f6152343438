/**
 * One n8n process of the multi-process scenario (bench/executions.ts): its own engine and its own
 * copy of the node's modules, as a queue-mode worker has. Started with a JSON job as its argument;
 * prints "ready" once loaded, runs its executions side by side when a line arrives on stdin, prints
 * their result (clients.ts's ExecutionsResult) as one JSON line and exits.
 */
import { createInterface } from 'node:readline';

import { batchesOf, runExecutions, type Target } from './clients';

export interface ChildJob {
	target: Target;
	executions: number;
	itemsEach: number;
	/** The number of this process's first to-do, so that names are unique over all processes. */
	first: number;
}

const job = JSON.parse(process.argv[2]) as ChildJob;
const batches = batchesOf(job.executions, job.itemsEach, { first: job.first });
const lines = createInterface({ input: process.stdin });
lines.once('line', () => {
	lines.close();
	void runExecutions(job.target, batches, { concurrency: 'auto' }).then(
		(result) => process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0)),
		(error: unknown) => {
			process.stderr.write(`bench child: ${(error as Error).stack ?? String(error)}\n`);
			process.exit(1);
		},
	);
});
process.stdout.write('ready\n');
