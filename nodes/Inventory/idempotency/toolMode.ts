import type { IExecuteFunctions } from 'n8n-workflow';

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
