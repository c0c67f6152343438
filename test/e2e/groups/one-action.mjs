// One action is what it does (docs/idempotency.md): in a real n8n, run with `n8n execute --id`, a node
// renamed books nothing again, and two workflows whose nodes keep n8n's default name "Create a todo"
// book their own to-dos for the same purchases.
import { executeOk, outputItems, requestsSince, runOf } from '../lib/checks.mjs';
import { assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';

const TAGGING = 'e2eWfOneActionTag';
const WARRANTY = 'e2eWfOneActionWarranty';

/** The workflows this group runs first, imported with the others. */
export const oneActionWorkflows = () => [
	W.oneActionWorkflow(TAGGING, 'Tag and label'),
	W.oneActionWorkflow(WARRANTY, 'Register warranty'),
];

const outcomes = (result, node) =>
	outputItems(runOf(result, node)[0]).map((item) => item.repeatCheck?.outcome);

export async function oneAction({ n8n, sandbox }, check) {
	const purchases = W.ONE_ACTION_PURCHASES.length;
	await check(
		'one action: two workflows with the default node name book their own to-dos for the same rows',
		async () => {
			await sandbox.reset();
			const tagging = await executeOk(n8n, TAGGING);
			const warranty = await executeOk(n8n, WARRANTY);
			assertEqual(
				[outcomes(tagging, W.DEFAULT_TODO_NODE_NAME), outcomes(warranty, W.DEFAULT_TODO_NODE_NAME)],
				[Array(purchases).fill('recorded'), Array(purchases).fill('recorded')],
				'each workflow recorded every row',
			);
			const names = (await sandbox.state()).todos.map((todo) => todo.name).sort();
			assertEqual(
				names,
				[...Array(purchases).fill('Register warranty'), ...Array(purchases).fill('Tag and label')],
				'to-dos in the sandbox: both per purchase',
			);
		},
	);

	await check('one action: the node renamed, its rows run again are replayed', async () => {
		await sandbox.reset();
		await executeOk(n8n, TAGGING);
		await n8n.importWorkflows([W.oneActionWorkflow(TAGGING, 'Tag and label', 'Tag and label')]);
		try {
			const renamed = await executeOk(n8n, TAGGING);
			assertEqual(
				outcomes(renamed, 'Tag and label'),
				Array(purchases).fill('replayed'),
				'the renamed node replayed every row',
			);
			const requests = await requestsSince(sandbox, 0);
			assertEqual(
				requests.map((request) => request.replayed),
				[...Array(purchases).fill(false), ...Array(purchases).fill(true)],
				'the sandbox replayed the renamed node’s requests',
			);
			assertEqual((await sandbox.state()).todos.length, purchases, 'to-dos: one per purchase');
		} finally {
			await n8n.importWorkflows([W.oneActionWorkflow(TAGGING, 'Tag and label')]);
		}
	});
}
