import { sleep, type IDataObject } from 'n8n-workflow';
import { timeOutAttempt, UNREACHED_TIMEOUT_MS } from '../harness/attempts';
import { nodeOutput } from '../harness/engine';
import { createTodoParameters, TOKENS } from '../fixtures';
import {
	holdUntilKeyAnsweredAgain,
	runError,
	runInventory,
	sent,
	useAttemptTimeouts,
	useSandbox,
	UUID_V5,
} from './util';

/*
 * A slow server: the first attempt times out while the server is still applying it, so the retry
 * (same key) meets "409 still being processed". The sandbox's processingDelayMs holds a fresh action's
 * key before applying it, which is exactly that server; here the hold lasts until the sandbox has
 * answered the key's next request, and the node's attempt times out as the hold begins (its Timeout
 * is never reached otherwise), so neither depends on the machine's speed.
 */
const env = useSandbox();
useAttemptTimeouts();

const createTodo = createTodoParameters();
const quickRetries = { timeout: UNREACHED_TIMEOUT_MS, retryDelay: 100, maxRetryWait: 400 };

/** The sandbox's processing holds the first attempt's key; that attempt times out as the hold begins. */
function firstAttemptTimesOut(): boolean[] {
	const timedOut: boolean[] = [];
	env.sandbox.setFaults({ processingDelayMs: 1 });
	holdUntilKeyAnsweredAgain(env, (held) => timedOut.push(timeOutAttempt(held.key)));
	return timedOut;
}

function statuses(): Array<[number | null, boolean]> {
	// The log is in completion order; the held first attempt completes after the retries it held up.
	return [...env.sandbox.requests()]
		.sort((a, b) => a.seq - b.seq)
		.map(({ status, replayed }) => [status, replayed]);
}

async function untilApplied(count: number): Promise<void> {
	for (let waited = 0; env.sandbox.state().counters.applied < count; waited += 50) {
		if (waited > 10_000) throw new Error('the sandbox never applied the held action');
		await sleep(50);
	}
}

describe('a 409 met by a retry of an unanswered attempt', () => {
	test('is waited out with the same key: the item succeeds with the replayed result, one record', async () => {
		const { sandbox } = env;
		const timedOut = firstAttemptTimesOut();
		const run = await runInventory(sandbox, [{}], {
			...createTodo,
			options: { ...quickRetries, maxRetries: 10 },
		});

		await untilApplied(1);
		expect(timedOut).toEqual([true]);
		const requests = sent(sandbox);
		const expectedRequest = {
			method: 'POST',
			path: '/api/v1/assets/1001/todos',
			headers: {
				accept: 'application/json',
				'content-type': 'application/json',
				'idempotency-key': expect.stringMatching(UUID_V5),
			},
			body: { name: 'Tag and label' },
		};
		expect(requests).toEqual(requests.map(() => expectedRequest));
		expect(new Set(requests.map(({ headers }) => headers['idempotency-key'])).size).toBe(1);
		// The timed-out first attempt applied the action; retries met it in flight, the last one replayed it.
		const seen = statuses();
		expect(seen[0]).toEqual([201, false]);
		expect(seen.slice(1, -1)).toEqual(seen.slice(1, -1).map(() => [409, false]));
		expect(seen.length).toBeGreaterThanOrEqual(3);
		expect(seen[seen.length - 1]).toEqual([201, true]);
		expect(sandbox.state().counters.idempotencyInFlight).toBe(seen.length - 2);

		const { todos } = sandbox.state();
		expect(todos).toHaveLength(1);
		expect(nodeOutput(run, 'Inventory')).toEqual([
			{
				json: expect.objectContaining({
					asset_id: 1001,
					todo: expect.objectContaining({ id: todos[0].id, name: 'Tag and label' }),
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	test('that persists past the retry budget says the request is still being processed and the key is safe to retry', async () => {
		const { sandbox } = env;
		const timedOut = firstAttemptTimesOut();
		const options = { ...quickRetries, maxRetries: 1 };
		const keyed = { ...createTodo, repeatProtection: 'expression', rowKey: 'intake-4711' };
		const run = await runInventory(sandbox, [{}], { ...keyed, options });

		await untilApplied(1);
		expect(timedOut).toEqual([true]);
		const [{ headers }] = sent(sandbox);
		const key = headers['idempotency-key'] as string;
		expect(statuses()).toEqual([
			[201, false],
			[409, false],
		]);
		const error = runError(run);
		expect(error).toEqual({
			message:
				'The Inventory API is still processing an earlier attempt of this request (409) after 1 retry [Row Key intake-4711, item 0]',
			description: `An earlier attempt got no answer (no answer came within the timeout) and the server still reports the request as in progress ("A request with this Idempotency-Key is still being processed; retry later to get its result."). The Idempotency-Key ${key} is safe to retry: a retry (Retry On Fail, or n8n's Retry execution) replays the result once the server has finished, and never creates a second record. If the server is often this slow, raise the Timeout or Max Retries option.`,
			httpCode: '409',
		});
		expect(error.description).not.toMatch(/different request/);

		// And it is: once the server has finished, the same key replays the one record.
		sandbox.setFaults(null);
		sandbox.holdRequests(null);
		const retried = await runInventory(sandbox, [{}], { ...keyed, options });
		expect(nodeOutput(retried, 'Inventory')).toHaveLength(1);
		expect(statuses()[2]).toEqual([201, true]);
		expect(sent(sandbox)[2].headers['idempotency-key']).toBe(key);
		expect(sandbox.state().todos).toHaveLength(1);
	});

	test('that names a real conflict stays final, with the API reason', async () => {
		const { sandbox } = env;
		// The first attempt's connection is reset, so its fate is unknown to the node; the retry is refused.
		sandbox.setFaults({ resetBeforeApplyRate: 1, maxFaultsPerKey: 1 });
		const run = await runInventory(sandbox, [{}], {
			resource: 'subscription',
			operation: 'updateBilling',
			subscriptionId: '2101',
			priceModel: 'lump_sum',
			cost: 100,
			billingFrequency: 'monthly',
			options: { ...quickRetries, maxRetries: 10 },
		});
		const error = runError(run);
		expect(error.message).toMatch(
			/^The Inventory API refused the change \(409\): .+free.+ \[item 0\]$/i,
		);
		expect(error.description).toBe(
			'The record changed or is in a state that does not allow this action. Refresh the record and try again.',
		);
		expect(statuses()).toEqual([
			[null, false],
			[409, false],
		]);
		expect(sandbox.state().counters.applied).toBe(0);
	});
});

/** Keyed by one business id (Repeat Protection with a fixed Row Key). */
const keyedByIntake = { repeatProtection: 'expression', rowKey: 'intake-4712' };

/** An output item's data without its repeat check. */
const withoutCheck = (data: IDataObject) => {
	const copy = { ...data };
	delete copy.repeatCheck;
	return copy;
};

describe('one business key on two items', () => {
	test('in one run, the items of one record go one after another: the second replays the first, one record', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ processingDelayMs: 200 });
		const run = await runInventory(sandbox, [{}, {}], {
			...createTodo,
			...keyedByIntake,
			options: { concurrency: 2 },
		});
		const [first, second] = nodeOutput(run, 'Inventory');
		expect(withoutCheck(second.json)).toEqual(withoutCheck(first.json));
		expect([first.json.repeatCheck, second.json.repeatCheck]).toMatchObject([
			{ outcome: 'recorded' },
			{
				outcome: 'replayed',
				note: 'Item 0 of this run has the same key; the API replayed its result.',
			},
		]);
		expect(statuses()).toEqual([
			[201, false],
			[201, true],
		]);
		expect(sandbox.state().todos).toHaveLength(1);
	});

	test('in two executions at once in one process, the record is changed one after another: the second replays the first, one record', async () => {
		const { sandbox } = env;
		sandbox.setFaults({ processingDelayMs: 800 });
		const execution = () =>
			runInventory(sandbox, [{}], {
				...createTodo,
				...keyedByIntake,
				options: { maxRetries: 5 },
			});
		const outputs = (await Promise.all([execution(), execution()])).map(
			(run) => nodeOutput(run, 'Inventory')[0],
		);
		expect(withoutCheck(outputs[1].json)).toEqual(withoutCheck(outputs[0].json));
		expect(
			outputs.map(({ json }) => (json.repeatCheck as { outcome: string }).outcome).sort(),
		).toEqual(['recorded', 'replayed']);
		expect(outputs[0]).toEqual({
			json: expect.objectContaining({ asset_id: 1001 }),
			pairedItem: { item: 0 },
		});
		expect(statuses()).toEqual([
			[201, false],
			[201, true],
		]);
		expect(sandbox.state().todos).toHaveLength(1);
	});

	test('in two processes at once (two credentials of one organization stand for them: nothing is shared), a 409 answering a first attempt is final: refused, never retried, one record', async () => {
		const { sandbox } = env;
		// The first request to arrive is processed until the other one has been answered: they meet.
		sandbox.setFaults({ processingDelayMs: 1 });
		holdUntilKeyAnsweredAgain(env);
		const execution = (token: string) =>
			runInventory(
				sandbox,
				[{}],
				{
					...createTodo,
					...keyedByIntake,
					options: { maxRetries: 5, timeout: UNREACHED_TIMEOUT_MS },
				},
				{ node: { onError: 'continueRegularOutput' }, token },
			);
		const outputs = (
			await Promise.all([execution(TOKENS.fullAccess), execution(TOKENS.todosOnly)])
		).map((run) => nodeOutput(run, 'Inventory')[0]);
		const refused = outputs.filter((output) => 'error' in output.json);
		expect(refused).toEqual([
			{
				json: {
					error:
						'The Inventory API refused the change (409): A request with this Idempotency-Key is still being processed; retry later to get its result. [Row Key intake-4712, item 0]',
					details: expect.objectContaining({ status: 409 }) as unknown,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(outputs.filter((output) => !('error' in output.json))).toEqual([
			{ json: expect.objectContaining({ asset_id: 1001 }), pairedItem: { item: 0 } },
		]);
		expect(statuses()).toEqual([
			[201, false],
			[409, false],
		]);
		expect(sandbox.state().todos).toHaveLength(1);
	});
});
