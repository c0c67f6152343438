import type {
	EngineRequest,
	EngineResponse,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	NodeOutput,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** Test workflows' start: emits the items given in its `items` parameter (a JSON array). */
export class FixtureItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fixture Items',
		name: 'fixtureItems',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [
			items.map(
				(json, index) => ({ json, pairedItem: { item: 0, input: 0 }, index }) as INodeExecutionData,
			),
		];
	}
}

/** A tool call a fixture agent makes: the tool node, the call's id and the arguments "the model" gave. */
export interface ScriptedToolCall {
	id: string;
	tool: string;
	args: IDataObject;
}

const agentDescription = (name: string, description: string): INodeTypeDescription => ({
	displayName: name,
	name,
	group: ['transform'],
	version: 1,
	description,
	defaults: { name: 'Agent' },
	inputs: [
		NodeConnectionTypes.Main,
		{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: false },
	],
	outputs: [NodeConnectionTypes.Main],
	properties: [{ displayName: 'Tool Calls', name: 'toolCalls', type: 'json', default: '[]' }],
});

function scriptedCalls(context: IExecuteFunctions): ScriptedToolCall[] {
	const raw = context.getNodeParameter('toolCalls', 0) as string | ScriptedToolCall[];
	return typeof raw === 'string' ? (JSON.parse(raw) as ScriptedToolCall[]) : raw;
}

/**
 * Calls its tools the way n8n's AI Agent 3.x does at the top of a workflow: it returns an engine
 * request, the engine runs the tool node once per call, then runs the agent again with the results.
 * Outputs one item per call: its id and what the tool returned (the run's `ai_tool` output).
 */
export class FixtureEngineAgent implements INodeType {
	description = agentDescription('fixtureEngineAgent', 'Calls its tools through engine requests');

	async execute(this: IExecuteFunctions, response?: EngineResponse): Promise<NodeOutput> {
		if (!response?.actionResponses?.length) {
			const request: EngineRequest = {
				actions: scriptedCalls(this).map(({ id, tool, args }) => ({
					actionType: 'ExecutionNodeAction',
					nodeName: tool,
					input: args,
					type: NodeConnectionTypes.AiTool,
					id,
					metadata: { itemIndex: 0 },
				})),
				metadata: {},
			};
			return request;
		}
		return [
			response.actionResponses.map(({ action, data }) => ({
				json: {
					toolCallId: action.id,
					result: (data.data?.[NodeConnectionTypes.AiTool]?.[0] ?? []).map(({ json }) => json),
				},
			})),
		];
	}
}

interface ConnectedTool {
	metadata?: { sourceNodeName?: string };
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * Calls its tools in-process, the way a sub-agent, an AI Agent before 3.x or the MCP server trigger
 * do: through the tools n8n builds from the connected tool nodes (`getInputConnectionData`).
 * Outputs one item per call: its id and the parsed result, or the error.
 */
export class FixtureInProcessAgent implements INodeType {
	description = agentDescription('fixtureInProcessAgent', 'Calls its tools in-process');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(
			NodeConnectionTypes.AiTool,
			0,
		)) as ConnectedTool[];
		const output: INodeExecutionData[] = [];
		for (const { id, tool, args } of scriptedCalls(this)) {
			const connected = tools.find(({ metadata }) => metadata?.sourceNodeName === tool);
			if (!connected) throw new Error(`No tool node "${tool}" is connected`);
			try {
				output.push({
					json: {
						toolCallId: id,
						result: JSON.parse(String(await connected.invoke(args))) as IDataObject[],
					},
				});
			} catch (error) {
				output.push({ json: { toolCallId: id, error: (error as Error).message } });
			}
		}
		return [output];
	}
}
