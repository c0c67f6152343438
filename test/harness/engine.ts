import './env';

/**
 * Runs real workflows through n8n-core's WorkflowExecute, in-process, with the built Inventory node
 * and credential from dist/ — the way n8n runs them, minus the database and the editor.
 */
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, InstanceSettings, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	ITaskData,
	ExecutionError,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	IConnections,
} from 'n8n-workflow';
import { deepCopy, ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { noteAttemptRequest } from './attempts';
import { installDeduplicationStore } from './deduplication';
import { FixtureEngineAgent, FixtureInProcessAgent, FixtureItems } from './fixture-nodes';

export { deduplicationStore } from './deduplication';

/**
 * The repository root: the nearest folder above this file whose package.json is this package's.
 * Works from source (test/harness, ts-jest) and compiled (build/test/harness, `npm run demo`).
 */
export function packageRoot(from: string = __dirname): string {
	for (let dir = from; ; dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (existsSync(manifest)) {
			try {
				if (
					(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name ===
					'n8n-nodes-inventory'
				)
					return dir;
			} catch {
				// not ours: keep walking up
			}
		}
		if (dirname(dir) === dir)
			throw new Error(`No package.json of n8n-nodes-inventory above ${from}`);
	}
}

const DIST = join(packageRoot(), 'dist');
if (!existsSync(join(DIST, 'nodes/Inventory/Inventory.node.js'))) {
	throw new Error('dist/ is missing: run `npm run build` first');
}

/**
 * Loads a module of the package as n8n loads it, from dist/ (e.g. `./nodes/Inventory/Inventory.node.js`).
 * Every suite takes the package through here, so one run never mixes dist/ with the source.
 */
export const fromDist = createRequire(join(DIST, 'package-modules.js'));

const { Inventory } = fromDist('./nodes/Inventory/Inventory.node.js') as {
	Inventory: new () => INodeType;
};
const { InventoryApi } = fromDist('./credentials/InventoryApi.credentials.js') as {
	InventoryApi: new () => ICredentialType;
};

const { serverControllers, CONTROLLER_IDLE_MS } = fromDist(
	'./nodes/Inventory/scheduling/controller.js',
) as typeof import('../../nodes/Inventory/scheduling/controller');

/**
 * The node's per-process controllers (rate, pause, records per server and credential) live as long as
 * the process; a test that must not inherit what an earlier one learned forgets them first, the way the
 * node does after five idle minutes: the lookup's clock is moved past them for that one call. A
 * controller still in use (a run open, a record held) is kept, as it would be.
 */
export function forgetServerControllers(): void {
	const realNow = Date.now;
	Date.now = () => realNow() + CONTROLLER_IDLE_MS;
	try {
		serverControllers.forgetIdle(silentLogger);
	} finally {
		Date.now = realNow;
	}
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Parameters<
	typeof serverControllers.forgetIdle
>[0];

export const INVENTORY_TYPE = 'n8n-nodes-inventory.inventory';
export const INVENTORY_TOOL_TYPE = `${INVENTORY_TYPE}Tool`;
export const ITEMS_TYPE = 'test.fixtureItems';
export const ENGINE_AGENT_TYPE = 'test.fixtureEngineAgent';
export const IN_PROCESS_AGENT_TYPE = 'test.fixtureInProcessAgent';

/**
 * A node's tool variant, made the way n8n 2.40's NodeTypes makes one for a node with `usableAsTool`
 * (packages/cli/src/node-types.ts, convertNodeToAiTool): the same node with `<name>Tool` as name, no
 * inputs and one `ai_tool` output.
 */
function toolVariant(nodeType: INodeType): INodeType {
	const { description } = nodeType;
	return Object.create(nodeType, {
		description: {
			value: {
				...description,
				name: `${description.name}Tool`,
				displayName: `${description.displayName} Tool`,
				inputs: [],
				outputs: [NodeConnectionTypes.AiTool],
			},
		},
	}) as INodeType;
}

const inventory = new Inventory();
const nodeTypes: Record<string, INodeType> = {
	[INVENTORY_TYPE]: inventory,
	[INVENTORY_TOOL_TYPE]: toolVariant(inventory),
	[ITEMS_TYPE]: new FixtureItems(),
	[ENGINE_AGENT_TYPE]: new FixtureEngineAgent(),
	[IN_PROCESS_AGENT_TYPE]: new FixtureInProcessAgent(),
};

export const inventoryNodeType = nodeTypes[INVENTORY_TYPE];

export const inventoryCredentialType = new InventoryApi();

class FixtureNodeTypes implements INodeTypes {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const nodeType = nodeTypes[type];
		if (!nodeType) throw new Error(`Unknown node type ${type}`);
		return nodeType;
	}

	getKnownTypes() {
		return {};
	}
}

/** n8n's credential authentication, as the n8n CLI's CredentialsHelper applies a credential's `authenticate` function. */
class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentials: ICredentialDataDecryptedObject,
		private readonly onRequest: (options: IHttpRequestOptions) => void = () => {},
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		if (typeName !== inventoryCredentialType.name)
			throw new Error(`Unknown credential ${typeName}`);
		// n8n-core hands the execution's cancel signal to the request: once it fired, nothing goes out.
		if (!requestOptions.abortSignal?.aborted) this.onRequest(requestOptions);
		noteAttemptRequest(requestOptions.headers);
		if (typeof inventoryCredentialType.authenticate !== 'function') {
			throw new Error('Expected an authenticate function');
		}
		return await inventoryCredentialType.authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		if (type !== inventoryCredentialType.name) throw new Error(`Unknown credential ${type}`);
		return deepCopy(this.credentials);
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return inventoryCredentialType.properties;
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const description = nodeTypes[nodeType]?.description;
		return description?.credentials?.some(({ name }) => name === credentialType) ?? false;
	}
}

export interface WorkflowDefinition {
	id?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
}

export interface RunOptions {
	/** The Inventory API credential; `ignoreSslIssues` for a sandbox with a self-signed certificate. */
	credentials: { baseUrl: string; apiToken: string; ignoreSslIssues?: boolean };
	executionId?: string;
	mode?: 'manual' | 'trigger' | 'retry';
	/** Resume this stored execution data, as n8n's "Retry execution" does. */
	executionData?: IRunExecutionData;
	/**
	 * The execution retried: n8n 2.x gives it to the execution's lifecycle hooks (`hooks.retryOf`, in
	 * additionalData); n8n 1.x's hooks do not hold it, which a retry without it reproduces.
	 */
	retryOf?: string;
	/** Called for every request the node sends (as n8n authenticates it, just before it goes out). */
	onRequest?: (options: IHttpRequestOptions) => void;
}

export function instanceId(): string {
	return Container.get(InstanceSettings).instanceId;
}

/**
 * Every node without a parent starts, as with a manual run from several start nodes; sub-nodes (a
 * tool connected to an agent) run only when their agent calls them.
 */
function startingExecutionData(workflow: Workflow): IRunExecutionData {
	const isSubNode = (name: string) =>
		Object.keys(workflow.connectionsBySourceNode[name] ?? {}).some(
			(type) => type !== NodeConnectionTypes.Main,
		);
	const startNodes = Object.values(workflow.nodes).filter(
		(node) => workflow.getParentNodes(node.name).length === 0 && !isSubNode(node.name),
	);
	if (startNodes.length === 0) throw new Error('Workflow has no start node');
	return {
		version: 1,
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: startNodes.map((node) => ({
				node,
				data: { main: [[{ json: {} }]] },
				source: null,
			})),
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
}

function workflowOf(definition: WorkflowDefinition): Workflow {
	return new Workflow({
		id: definition.id ?? 'wf-test',
		name: 'Test workflow',
		nodes: definition.nodes,
		connections: definition.connections,
		active: false,
		nodeTypes: new FixtureNodeTypes(),
		settings: definition.settings ?? {},
	});
}

/** The execution data n8n stores when a new execution starts, before any node runs. */
export function storedAtStart(definition: WorkflowDefinition): IRunExecutionData {
	return startingExecutionData(workflowOf(definition));
}

/** Executes a workflow to its end; resolves to n8n's IRun (run data, status, errors). */
export async function runWorkflow(
	definition: WorkflowDefinition,
	options: RunOptions,
): Promise<IRun> {
	const execution = await startWorkflow(definition, options);
	await execution.engineDone;
	return await execution.finished;
}

/** An execution under way, which can be stopped as the editor's Stop (or n8n's timeout) stops it. */
export interface StartedExecution {
	/** n8n's IRun once the execution ended: at once after a stop, with status `canceled`. */
	finished: Promise<IRun>;
	/** Settles when the engine itself is done: the node running at the stop has returned (or thrown). */
	engineDone: Promise<void>;
	/** n8n's cancellation: the execution's cancel signal fires, the execution ends as canceled. */
	stop(): void;
}

/** Starts a workflow; resolves once it is under way; see StartedExecution. */
export async function startWorkflow(
	definition: WorkflowDefinition,
	options: RunOptions,
): Promise<StartedExecution> {
	await installDeduplicationStore();
	const executionId = options.executionId ?? randomUUID();
	const mode = options.mode ?? 'manual';
	const workflowData = {
		id: definition.id ?? 'wf-test',
		name: 'Test workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		nodes: definition.nodes,
		connections: definition.connections,
		settings: definition.settings ?? {},
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	const workflow = workflowOf(definition);

	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData, options.retryOf);
	let resolveFinished: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveFinished(run));

	const additionalData = {
		credentialsHelper: new CredentialsHelper(options.credentials, options.onRequest),
		hooks,
		executionId,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		variables: {},
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code node runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	const runExecutionData = options.executionData ?? startingExecutionData(workflow);
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	// n8n's cancellation (ActiveExecutions.stopExecution) cancels this PCancelable.
	const processing = execute.processRunExecutionData(workflow);
	const engineDone = Promise.resolve(processing).then(
		() => undefined,
		() => undefined,
	);
	return {
		finished,
		engineDone,
		stop: () => processing.cancel(),
	};
}

/**
 * What n8n keeps of an execution killed while `crashed` ran (regular mode; n8n 2.40.7's
 * ExecutionRecoveryService.amend, at the next start): the data it stored when the execution started
 * and, from the event log, a run for each node that started and has no run data yet: placeholder
 * data for those that finished, an error for the one that did not, which becomes the last node
 * executed. Nothing the nodes set while running is kept, custom data included.
 */
export function storedAfterCrash(
	storedAtStart: IRunExecutionData,
	started: { finished: string[]; crashed: string },
): Pick<IRun, 'data'> {
	const data = deepCopy(storedAtStart);
	const runData = data.resultData.runData;
	const base = { startTime: Date.now(), executionIndex: 0, source: [null] };
	for (const name of started.finished) {
		if (runData[name] !== undefined) continue;
		const recovered = [{ json: { isArtificialRecoveredEventItem: true } }];
		runData[name] = [
			{ ...base, executionTime: 1, executionStatus: 'success', data: { main: [recovered] } },
		];
		data.resultData.lastNodeExecuted = name;
	}
	if (runData[started.crashed] === undefined) {
		const error = new Error('Node crashed, possible out-of-memory issue');
		runData[started.crashed] = [
			{ ...base, executionTime: 0, executionStatus: 'crashed', error } as ITaskData,
		];
		data.resultData.error = new Error(
			'Workflow did not finish, possible out-of-memory issue',
		) as ExecutionError;
		data.resultData.lastNodeExecuted = started.crashed;
	}
	return { data };
}

/**
 * The data n8n's "Retry execution" (ExecutionService.retry in the n8n CLI) runs, and stores as the
 * retry's data when it starts: the stored data of the retried execution, with the failed node's last
 * (error) run removed so that it runs anew.
 */
export function retryStartData(retried: Pick<IRun, 'data'>): IRunExecutionData {
	const executionData = deepCopy(retried.data);
	const { lastNodeExecuted } = executionData.resultData;
	if (lastNodeExecuted) {
		delete executionData.resultData.error;
		const runs = executionData.resultData.runData[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return executionData;
}

/**
 * n8n's "Retry execution": the retried execution's data is run again under a new execution id, in
 * mode "retry", with the retried execution's id as the lifecycle hooks' `retryOf`.
 */
export async function retryExecution(
	definition: WorkflowDefinition,
	failed: Pick<IRun, 'data'>,
	options: Omit<RunOptions, 'executionData' | 'mode' | 'retryOf'> & { failedExecutionId: string },
): Promise<IRun> {
	return await runWorkflow(definition, {
		...options,
		mode: 'retry',
		executionData: retryStartData(failed),
		retryOf: options.failedExecutionId,
	});
}

/** The items a node output on its `outputIndex` in run `runIndex`. */
export function nodeOutput(
	run: IRun,
	nodeName: string,
	outputIndex = 0,
	runIndex = 0,
): INodeExecutionData[] {
	const task = run.data.resultData.runData[nodeName]?.[runIndex];
	if (!task) throw new Error(`Node ${nodeName} has no run ${runIndex}`);
	if (task.error) throw task.error;
	return task.data?.main?.[outputIndex] ?? [];
}

/** A test workflow's start, named "Items": emits the given items. */
export function itemsNode(items: IDataObject[]): INode {
	return {
		id: 'items-node',
		name: 'Items',
		type: ITEMS_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(items) },
	};
}

/**
 * The parameters as a test gives them; one that names no key (no Repeat Protection, Key Columns or
 * Row Key) gets the keys of the execution, so that tests of other things need no key columns.
 */
export function withKeyChoice(parameters: INode['parameters']): INode['parameters'] {
	const keyed = ['repeatProtection', 'keyColumns', 'rowKey'].some((name) => name in parameters);
	return keyed ? parameters : { repeatProtection: 'execution', ...parameters };
}

/** An Inventory node with the test credential and exactly these parameters. */
export function inventoryNode(name: string, id: string, parameters: INode['parameters']): INode {
	return {
		id,
		name,
		type: INVENTORY_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { inventoryApi: { id: 'cred-1', name: 'Inventory sandbox' } },
	};
}

/** A two-node workflow: fixture items -> Inventory, with the given parameters. */
export function inventoryWorkflow(
	items: IDataObject[],
	parameters: INode['parameters'],
	extra: { settings?: IWorkflowSettings; node?: Partial<INode> } = {},
): WorkflowDefinition {
	return {
		nodes: [
			itemsNode(items),
			{
				...inventoryNode('Inventory', 'inventory-node-1', withKeyChoice(parameters)),
				...extra.node,
			},
		],
		connections: { Items: { main: [[{ node: 'Inventory', type: 'main', index: 0 }]] } },
		settings: extra.settings,
	};
}
