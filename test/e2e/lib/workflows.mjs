// The example workflows of the e2e proof, built as n8n workflow JSON (importable with
// `n8n import:workflow`). Node type and parameter names are the package's public contract
// (docs/api.md and the README's Operations).

import {
	ALL_OPERATIONS_NODES,
	PER_LICENSE_BILLING,
	createTodoParameters,
	recordAcquisitionParameters,
	updateBillingParameters,
} from '../../fixtures/index.js';

export const NODE_TYPE = 'n8n-nodes-inventory.inventory';
export const CREDENTIAL = { id: 'e2eInventoryCred', name: 'Inventory sandbox' };
export const TRIGGER = 'When clicking ‘Execute workflow’';

export function credentialJson({
	baseUrl,
	apiToken,
	id = CREDENTIAL.id,
	name = CREDENTIAL.name,
	ignoreSslIssues,
}) {
	const data = { baseUrl, apiToken, ...(ignoreSslIssues === undefined ? {} : { ignoreSslIssues }) };
	return [{ id, name, type: 'inventoryApi', data }];
}

/** The credential of the HTTPS sandbox (self-signed), with "Ignore SSL Issues (Insecure)" on. */
export const TLS_CREDENTIAL = { id: 'e2eInventoryTlsCred', name: 'Inventory sandbox (HTTPS)' };

const SETTINGS = {
	executionOrder: 'v1',
	saveDataErrorExecution: 'all',
	saveDataSuccessExecution: 'all',
	saveManualExecutions: true,
	timezone: 'UTC',
};

function trigger(position = [0, 0]) {
	return {
		id: 'trigger',
		name: TRIGGER,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position,
		parameters: {},
	};
}

/** A Code node returning fixed items (runs in n8n's JS task runner). */
function items(name, list, position) {
	return {
		id: `items-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position,
		parameters: { jsCode: `return ${JSON.stringify(list.map((json) => ({ json })))};` },
	};
}

/**
 * An Inventory node (its one version). Parameters that name no key (no Repeat Protection, Key
 * Columns or Row Key) get the keys of the execution, as in the jest harness.
 */
export function inventoryNode({
	id,
	name,
	position,
	parameters,
	onError,
	credential = CREDENTIAL,
}) {
	const keyed = ['repeatProtection', 'keyColumns', 'rowKey'].some((key) => key in parameters);
	return {
		id,
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position,
		parameters: keyed ? parameters : { repeatProtection: 'execution', ...parameters },
		credentials: { inventoryApi: { ...credential } },
		...(onError ? { onError } : {}),
	};
}

function noOp(name, position) {
	return {
		id: `noop-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position,
		parameters: {},
	};
}

const link = (node, index = 0) => ({ node, type: 'main', index });

export function chain(...names) {
	const c = {};
	for (let i = 0; i < names.length - 1; i++) c[names[i]] = { main: [[link(names[i + 1])]] };
	return c;
}

export function workflow(id, name, nodes, connections) {
	return {
		id,
		name,
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: { ...SETTINGS },
		pinData: {},
		staticData: null,
	};
}

// ------------------------------------------------------------------------------------------------
// Headless workflows (run with `n8n execute --id`)

/** Bulk intake at automatic concurrency (version 3) over HTTPS: to-dos spread over many assets. */
export const BULK_TLS_ITEMS = Array.from({ length: 150 }, (_, i) => ({
	assetId: 1001 + (i % 20),
	task: `Bulk intake #${i}`,
}));

export function bulkTlsWorkflow() {
	return workflow(
		'e2eBulkTls',
		'E2E bulk intake over HTTPS, automatic concurrency',
		[
			trigger(),
			items('Intake Rows', BULK_TLS_ITEMS, [200, 0]),
			inventoryNode({
				id: 'bulk-tls',
				name: 'Create Todos',
				position: [400, 0],
				credential: TLS_CREDENTIAL,
				parameters: createTodoParameters({
					assetId: '={{ $json.assetId }}',
					name: '={{ $json.task }}',
				}),
			}),
		],
		chain(TRIGGER, 'Intake Rows', 'Create Todos'),
	);
}

/**
 * A production webhook per to-do, as a procurement system posts one call per purchase: Webhook
 * (POST `{ assetId, name }`, answers with the to-do once the execution ended) → Create Todo at
 * version 3's defaults (automatic concurrency, retries). Activated and called by the webhook-burst
 * checks (lib/burst.mjs), in regular and in queue mode.
 */
export const WEBHOOK_BURST_PATH = 'inventory-burst';
export const webhookBurstWorkflow = () =>
	workflow(
		'e2eWfWebhookBurst',
		'E2E: a to-do per webhook call',
		[
			{
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'a1b2c3d4-0000-4000-8000-00000000e001',
				parameters: {
					httpMethod: 'POST',
					path: WEBHOOK_BURST_PATH,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			inventoryNode({
				id: 'burst-create',
				name: 'Create Todo',
				position: [220, 0],
				parameters: createTodoParameters({
					assetId: '={{ $json.body.assetId }}',
					name: '={{ $json.body.name }}',
				}),
			}),
		],
		chain('Webhook', 'Create Todo'),
	);

/** A to-do per incoming item: its asset and title. */
const TODO_FROM_ITEM = { assetId: '={{ $json.assetId }}', name: '={{ $json.title }}' };

export const createTodoWorkflow = () =>
	workflow(
		'e2eWfCreateTodo1',
		'E2E: create to-dos',
		[
			trigger(),
			items(
				'Assets',
				[
					{ assetId: 1001, title: 'Tag and label' },
					{ assetId: 1002, title: 'Replace battery' },
				],
				[220, 0],
			),
			inventoryNode({
				id: 'inv-create-todo',
				name: 'Create Todo',
				position: [440, 0],
				parameters: createTodoParameters(TODO_FROM_ITEM, {
					notes: 'created by the e2e proof',
					dueDate: '2026-12-31',
					assignedTo: 102,
					isComplete: false,
				}),
			}),
		],
		chain(TRIGGER, 'Assets', 'Create Todo'),
	);

export const updateBillingWorkflow = () =>
	workflow(
		'e2eWfUpdateBill1',
		'E2E: update billing',
		[
			trigger(),
			inventoryNode({
				id: 'inv-update-billing',
				name: 'Update Billing',
				position: [220, 0],
				parameters: updateBillingParameters(PER_LICENSE_BILLING, {
					description: 'e2e: more seats',
				}),
			}),
		],
		chain(TRIGGER, 'Update Billing'),
	);

export const recordAcquisitionWorkflow = () =>
	workflow(
		'e2eWfAcquisition',
		'E2E: record acquisitions',
		[
			trigger(),
			inventoryNode({
				id: 'inv-purchase',
				name: 'Record Purchase',
				position: [220, 0],
				parameters: recordAcquisitionParameters(
					{ assetId: '1003' },
					{ acquiredFrom: 'ACME Reseller', cost: 999.99, description: 'e2e purchase' },
				),
			}),
			inventoryNode({
				id: 'inv-lease',
				name: 'Record Lease',
				position: [440, 0],
				parameters: recordAcquisitionParameters(
					{ assetId: '1004', eventTypeId: '302' },
					{
						paymentPlan: {
							plan: { payment: 100, billingFrequency: 'monthly', numberOfPayments: 24 },
						},
						fieldValues: { values: [{ fieldId: '401', value: 'LC-2026-001' }] },
						fieldValuesJson: '{ "402": 4021 }',
					},
				),
			}),
		],
		chain(TRIGGER, 'Record Purchase', 'Record Lease'),
	);

/** Item 2 is an asset of another organization (404): "On Error: Continue (using error output)". */
export const errorOutputWorkflow = () => {
	const wf = workflow(
		'e2eWfErrorOutput',
		'E2E: error output',
		[
			trigger(),
			items(
				'Assets',
				[
					{ assetId: 1005, title: 'Inspect' },
					{ assetId: 1901, title: 'Not ours' },
					{ assetId: 1006, title: 'Inspect too' },
				],
				[220, 0],
			),
			inventoryNode({
				id: 'inv-error-output',
				name: 'Create Todo',
				position: [440, 0],
				onError: 'continueErrorOutput',
				parameters: createTodoParameters(TODO_FROM_ITEM),
			}),
			noOp('Succeeded', [660, -100]),
			noOp('Failed', [660, 100]),
		],
		chain(TRIGGER, 'Assets', 'Create Todo'),
	);
	wf.connections['Create Todo'] = { main: [[link('Succeeded')], [link('Failed')]] };
	return wf;
};

/**
 * The error item (`{ error, details }`) on the error output: row 2 is refused by the API (422, a person's ID
 * where an organization user is required), row 3 fails its check (a name over 255 characters).
 */
export const errorDetailsWorkflow = () => {
	const wf = workflow(
		'e2eWfErrorDetails',
		'E2E: error output with details',
		[
			trigger(),
			items(
				'Rows',
				[
					{ sheetRow: 2, assetId: 1005, title: 'Inspect' },
					{ sheetRow: 3, assetId: 1006, title: 'Assign to a person', user: 501 },
					{ sheetRow: 4, assetId: 1007, title: 'x'.repeat(256) },
				],
				[220, 0],
			),
			inventoryNode({
				id: 'inv-error-details',
				name: 'Create Todo',
				position: [440, 0],
				onError: 'continueErrorOutput',
				parameters: createTodoParameters(
					// Repeat Protection kept to this execution's retries: the keys are derived.
					{ ...TODO_FROM_ITEM, repeatProtection: 'execution' },
					{ assignedTo: '={{ $json.user ?? "" }}' },
				),
			}),
			noOp('Succeeded', [660, -100]),
			noOp('Failed', [660, 100]),
		],
		chain(TRIGGER, 'Rows', 'Create Todo'),
	);
	wf.connections['Create Todo'] = { main: [[link('Succeeded')], [link('Failed')]] };
	return wf;
};

/** The same Inventory node runs twice in one execution (Loop Over Items, batch size 1). */
export const loopWorkflow = () => {
	const wf = workflow(
		'e2eWfLoopTwice01',
		'E2E: node runs twice',
		[
			trigger(),
			items(
				'Assets',
				[
					{ assetId: 1007, title: 'Loop run 1' },
					{ assetId: 1007, title: 'Loop run 2' },
				],
				[220, 0],
			),
			{
				id: 'loop',
				name: 'Loop',
				type: 'n8n-nodes-base.splitInBatches',
				typeVersion: 3,
				position: [440, 0],
				parameters: { batchSize: 1, options: {} },
			},
			inventoryNode({
				id: 'inv-loop',
				name: 'Create Todo',
				position: [660, 100],
				parameters: createTodoParameters(TODO_FROM_ITEM),
			}),
			noOp('Done', [660, -100]),
		],
		chain(TRIGGER, 'Assets', 'Loop'),
	);
	wf.connections.Loop = { main: [[link('Done')], [link('Create Todo')]] };
	wf.connections['Create Todo'] = { main: [[link('Loop')]] };
	return wf;
};

// ------------------------------------------------------------------------------------------------
// "Retry execution": the Inventory node fails on item 3 after items 1 and 2 were created; the
// workflow stops there (On Error: Stop Workflow, the default) and the failed execution is saved.

export const RETRY_ASSETS = [
	{ assetId: 1010, title: 'Retry item 1' },
	{ assetId: 1011, title: 'Retry item 2' },
	{ assetId: 1012, title: 'Retry item 3' },
];

/** Fails on item 3 when the sandbox rate-limits it (no node-level retries): fixed outside n8n. */
export const retryRateLimitWorkflow = () =>
	workflow(
		'e2eWfRetryLimit1',
		'E2E: retry after a rate limit',
		[
			trigger(),
			items('Assets', RETRY_ASSETS, [220, 0]),
			inventoryNode({
				id: 'inv-retry-limit',
				name: 'Create Todo',
				position: [440, 0],
				parameters: createTodoParameters({ ...TODO_FROM_ITEM, options: { maxRetries: 0 } }),
			}),
		],
		chain(TRIGGER, 'Assets', 'Create Todo'),
	);

/** Fails on item 3 (404: the asset is another organization's) until the workflow is fixed. */
export const RETRY_FIX_ASSETS = [
	{ assetId: 1013, title: 'Fix item 1' },
	{ assetId: 1014, title: 'Fix item 2' },
	{ assetId: 1901, title: 'Fix item 3', correctAssetId: 1015 },
];
export const RETRY_FIX_BROKEN_ASSET = '={{ $json.assetId }}';
export const RETRY_FIX_FIXED_ASSET = '={{ $json.correctAssetId ?? $json.assetId }}';

export const retryFixWorkflow = () =>
	workflow(
		'e2eWfRetryFix001',
		'E2E: retry with the fixed workflow',
		[
			trigger(),
			items('Assets', RETRY_FIX_ASSETS, [220, 0]),
			inventoryNode({
				id: 'inv-retry-fix',
				name: 'Create Todo',
				position: [440, 0],
				parameters: createTodoParameters(
					{ ...TODO_FROM_ITEM, assetId: RETRY_FIX_BROKEN_ASSET },
					{},
				),
			}),
		],
		chain(TRIGGER, 'Assets', 'Create Todo'),
	);

// ------------------------------------------------------------------------------------------------
// The editor: one workflow holding the node for each operation.

export const editorWorkflow = () =>
	workflow(
		'e2eWfEditorView1',
		'Inventory: all operations',
		[trigger([0, 0]), ...ALL_OPERATIONS_NODES.map((node) => inventoryNode(node))],
		{
			[TRIGGER]: {
				main: [[link('Create Todo'), link('Update Billing'), link('Record Acquisition')]],
			},
		},
	);

// ------------------------------------------------------------------------------------------------
// The examples (examples/*.workflow.json), imported exactly as shipped except for the credentials
// (the e2e's sandbox credential and an OpenAI credential pointing at the scripted model) and the
// per-check changes of `nodeChanges` (node name -> fields merged into that node). The AI agent
// (examples/purchase-email-agent.workflow.json): an AI Agent with n8n's OpenAI Chat Model and the
// node's tool variant.

export const AGENT_EXAMPLE_FILE = 'examples/purchase-email-agent.workflow.json';
export const TOOL_NODE_TYPE = `${NODE_TYPE}Tool`;
export const MODEL_CREDENTIAL = { id: 'e2eScriptedModel', name: 'Scripted model (loopback)' };

export function openAiCredentialJson({ url }) {
	return [{ ...MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-scripted-e2e', url } }];
}

export function exampleWorkflow(example, { id, name, nodeChanges = {} }) {
	const nodes = example.nodes.map((node) => {
		const credentials = node.credentials?.inventoryApi
			? { inventoryApi: { ...CREDENTIAL } }
			: node.credentials?.openAiApi
				? { openAiApi: { ...MODEL_CREDENTIAL } }
				: node.credentials;
		return { ...node, ...(credentials ? { credentials } : {}), ...(nodeChanges[node.name] ?? {}) };
	});
	return {
		...example,
		id,
		name,
		nodes,
		settings: { ...example.settings, ...SETTINGS },
		isArchived: false,
		staticData: null,
	};
}

// ------------------------------------------------------------------------------------------------
// Stop: a bulk import stopped while its items wait out a long back-off (the editor's Stop button).

/** 60 to-dos over 20 assets: the first item of each asset is sent, the others wait for their asset. */
export const STOP_IMPORT_ITEMS = Array.from({ length: 60 }, (_, i) => ({
	assetId: 1001 + (i % 20),
	title: `Stopped import #${i}`,
}));

export const stopImportWorkflow = () =>
	workflow(
		'e2eWfStopImport1',
		'E2E: stop a bulk import',
		[
			trigger(),
			items('Import', STOP_IMPORT_ITEMS, [220, 0]),
			inventoryNode({
				id: 'inv-stop-import',
				name: 'Create Todo',
				position: [440, 0],
				// A 5xx is retried after Retry Delay: ten minutes, so a wait that outlived the stop would show.
				parameters: createTodoParameters(
					{ ...TODO_FROM_ITEM, options: { retryDelay: 600_000, maxRetryWait: 3_600_000 } },
					{},
				),
			}),
		],
		chain(TRIGGER, 'Import', 'Create Todo'),
	);

// ------------------------------------------------------------------------------------------------
// From a spreadsheet file (groups/spreadsheet.mjs): Read/Write Files from Disk and Extract From File,
// both n8n's own nodes as a user adds them, into Record Acquisition at the node's newest version with
// the form's Repeat Protection (each row once, keyed by columns) and the error output.

/**
 * The node option that states the order of day and month once for every row (dates such as
 * 10/1/2025 have two readings); the CSV is from a US-locale Excel, month first.
 */
export const MONTH_FIRST = { dateOrder: 'monthFirst' };

/** The sheet's columns mapped as a user maps them (drag and drop gives `$json.<column>`). */
export const SHEET_ACQUISITION_PARAMETERS = {
	resource: 'asset',
	operation: 'recordAcquisition',
	assetId: '={{ $json.asset_id }}',
	eventTypeId: '301',
	additionalFields: {
		eventDate: '={{ $json.date }}',
		acquiredFrom: '={{ $json.vendor }}',
		price: '={{ $json.price }}',
	},
	repeatProtection: 'columns',
	keyColumns: 'po_number, line',
	options: { ...MONTH_FIRST },
};

/**
 * Manual Trigger → Read/Write Files from Disk (the file under n8n's files folder, by its absolute
 * path: the selector is a glob, `~` is not expanded) → Extract From File (`csv` or `xlsx`, default
 * options) → Record acquisition (On Error: continue using error output) → Booked / Refused rows.
 */
export function spreadsheetWorkflow({ id, name, filePath, extract, timezone }) {
	const wf = workflow(
		id,
		name,
		[
			trigger(),
			{
				id: `${id}-read`,
				name: 'Read the file',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [220, 0],
				parameters: { fileSelector: filePath, options: {} },
			},
			{
				id: `${id}-extract`,
				name: 'Extract rows',
				type: 'n8n-nodes-base.extractFromFile',
				typeVersion: 1.1,
				position: [440, 0],
				parameters: { operation: extract, options: {} },
			},
			inventoryNode({
				id: `${id}-acquisition`,
				name: 'Record acquisition',
				position: [660, 0],
				onError: 'continueErrorOutput',
				parameters: SHEET_ACQUISITION_PARAMETERS,
			}),
			noOp('Booked', [880, -100]),
			noOp('Refused rows', [880, 100]),
		],
		chain(TRIGGER, 'Read the file', 'Extract rows', 'Record acquisition'),
	);
	wf.connections['Record acquisition'] = {
		main: [[link('Booked')], [link('Refused rows')]],
	};
	wf.settings.timezone = timezone;
	return wf;
}

// ------------------------------------------------------------------------------------------------
// One action (docs/idempotency.md): a renamed node, two workflows with n8n's default node name

/** Three purchases, each on an asset of its own, keyed by their PO column. */
export const ONE_ACTION_PURCHASES = [
	{ po_number: 'PO-1', asset: 1011 },
	{ po_number: 'PO-2', asset: 1012 },
	{ po_number: 'PO-3', asset: 1013 },
];

/** The name n8n 2.x gives every Create Todo node added from the nodes panel. */
export const DEFAULT_TODO_NODE_NAME = 'Create a todo';

/**
 * A workflow booking the to-do `task` for each purchase, keyed by po_number, its node named
 * `nodeName` (by default n8n's own name for a new Create Todo node).
 */
export const oneActionWorkflow = (id, task, nodeName = DEFAULT_TODO_NODE_NAME) =>
	workflow(
		id,
		`E2E: ${task} for each purchase`,
		[
			trigger(),
			items('Purchases', ONE_ACTION_PURCHASES, [220, 0]),
			inventoryNode({
				id: `${id}-todo`,
				name: nodeName,
				position: [440, 0],
				parameters: createTodoParameters({
					assetId: '={{ $json.asset }}',
					name: task,
					repeatProtection: 'columns',
					keyColumns: 'po_number',
				}),
			}),
		],
		chain(TRIGGER, 'Purchases', nodeName),
	);
