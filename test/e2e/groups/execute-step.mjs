// Repeat protection in the editor's partial runs: "Execute step" on the example's Record acquisition
// node, through the REST API the editor uses (POST /rest/workflows/:id/run with the run data of the
// nodes before it and `destinationNode`), after a full manual run of the workflow.
import { lastSeq, requestsSince } from '../lib/checks.mjs';
import { unflatten } from '../lib/n8n.mjs';
import { assertEqual } from '../lib/util.mjs';
import * as W from '../lib/workflows.mjs';
import {
	EXECUTE_STEP_WORKFLOW_ID,
	outcomesOf,
	procurementExample,
	purchasesOf,
} from './examples.mjs';

const STEP_NODE = 'Record acquisition';

/** The items a node output in the last run an execution holds of it. */
function outputOf(data, nodeName) {
	const runs = data.resultData.runData[nodeName] ?? [];
	return (runs.at(-1)?.data?.main?.[0] ?? []).map((item) => item.json);
}

export async function executeStep({ sandbox, api }, check) {
	await check(
		'repeat protection: Execute step on Record acquisition after a full run replays every row',
		async () => {
			await sandbox.reset();
			const purchases = purchasesOf(procurementExample()).length;
			const fullId = await api.runManually(EXECUTE_STEP_WORKFLOW_ID, W.TRIGGER);
			const full = await api.waitForExecution(fullId);
			assertEqual(full.status, 'success', `status of the full run ${fullId}`);
			const fullData = await unflatten(full.data);
			assertEqual(
				outcomesOf([outputOf(fullData, STEP_NODE)]),
				[Array(purchases).fill('recorded')],
				'the full run recorded every acquisition',
			);

			// What the editor sends for "Execute step": the saved workflow, the run data of the nodes
			// before the step (the trigger and the Code node) and the step as destination.
			const workflowData = await api.get(`/workflows/${EXECUTE_STEP_WORKFLOW_ID}`);
			const runData = Object.fromEntries(
				Object.entries(fullData.resultData.runData).filter(([name]) =>
					[W.TRIGGER, 'Incoming purchases'].includes(name),
				),
			);
			const seq = await lastSeq(sandbox);
			for (const attempt of [1, 2]) {
				const started = await api.post(`/workflows/${EXECUTE_STEP_WORKFLOW_ID}/run`, {
					workflowData,
					runData,
					destinationNode: { nodeName: STEP_NODE, mode: 'inclusive' },
					dirtyNodeNames: [],
				});
				const step = await api.waitForExecution(String(started.executionId));
				assertEqual(step.status, 'success', `status of Execute step #${attempt}`);
				const stepData = await unflatten(step.data);
				assertEqual(
					Object.keys(stepData.resultData.runData).includes('Create to-do'),
					false,
					`Execute step #${attempt} ran up to ${STEP_NODE} only`,
				);
				assertEqual(
					outcomesOf([outputOf(stepData, STEP_NODE)]),
					[Array(purchases).fill('replayed')],
					`Execute step #${attempt}: every acquisition replayed`,
				);
			}
			const requests = await requestsSince(sandbox, seq);
			assertEqual(
				requests.map((request) => [request.operation, request.replayed]),
				Array(2 * purchases).fill(['recordAcquisition', true]),
				'the sandbox replayed both steps’ requests',
			);
			assertEqual(
				(await sandbox.state()).acquisitions.length,
				purchases,
				'acquisitions in the sandbox: one per purchase',
			);
		},
	);
}
