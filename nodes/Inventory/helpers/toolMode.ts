import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether n8n runs the node's tool variant (`n8n-nodes-inventory.inventoryTool`), the one an AI
 * agent calls. n8n 2.x runs an agent's tool call in one of two ways:
 * - AI Agent 3.x at the top of a workflow asks the engine to run the tool node: each call is a run of
 *   its own (its own run index, one item) and "Retry On Fail" reruns it with the same run index;
 * - a sub-agent, an AI Agent before 3.x or the MCP server trigger call the tool in-process
 *   (`isToolExecution()`), where every call and every try of "Retry On Fail" gets a new run index.
 */
export function isToolVariant(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/** The second way above: the tool is called in-process through a supply-data context. */
export function isInProcessToolCall(context: IExecuteFunctions): boolean {
	return typeof context.isToolExecution === 'function' && context.isToolExecution();
}

/**
 * What a tool call returns to the agent: the response's data without the null, empty-list and
 * empty-object fields (an available asset's state is mostly nulls), so that the model reads the IDs
 * and values that matter and fewer tokens. The node's own output (not a tool) stays the data object.
 */
export function compactForAgent(data: IDataObject): IDataObject {
	const compact: IDataObject = {};
	for (const [key, value] of Object.entries(data)) {
		const kept = compactValue(value);
		if (kept !== undefined) compact[key] = kept;
	}
	return compact;
}

function compactValue(value: unknown): IDataObject[keyof IDataObject] | undefined {
	if (value === null || value === undefined) return undefined;
	if (Array.isArray(value)) return value.length === 0 ? undefined : (value as IDataObject[]);
	if (typeof value === 'object') {
		const nested = compactForAgent(value as IDataObject);
		return Object.keys(nested).length === 0 ? undefined : nested;
	}
	return value as IDataObject[keyof IDataObject];
}
