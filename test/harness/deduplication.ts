/**
 * n8n's deduplication store (`this.helpers.checkProcessedAndRecord` and its siblings) for the engine
 * harness. n8n-core's DataDeduplicationService hands the helpers' calls to a backing store that the
 * n8n CLI provides (packages/cli/src/deduplication/deduplication-helper.ts, on n8n's database); this
 * is that store in memory, with the same rules for the "entries" mode the node uses, read in the
 * installed n8n 2.40.7: one list per workflow and context (`n:<node id>` for scope "node", "" for
 * "workflow"), items kept as MD5 base64 hashes, a key seen before is "processed" (compared with the
 * list as it was before the call), and the oldest entries dropped beyond `maxEntries`.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { createHash } from 'node:crypto';

export class InMemoryDeduplicator implements IDataDeduplicator {
	private readonly lists = new Map<string, string[]>();
	/** When set, every call fails with it (a database that does not answer). */
	failWith: Error | undefined;
	/**
	 * How many of the next recording calls another n8n process overwrites at once (its write of the
	 * list as it read it before): the keys such a call added are gone again, as n8n's store, with no
	 * lock, can lose them to a queue worker writing at the same moment.
	 */
	writesLostToAnotherProcess = 0;
	/** Every call, for assertions on how the node uses the store. */
	readonly calls: Array<{ method: string; scope: DeduplicationScope; items?: string[] }> = [];

	private static listName(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		if (!contextData.workflow.id) throw new Error('The workflow has no id');
		if (scope === 'node') {
			if (!contextData.node)
				throw new Error("No node information has been provided and so cannot use scope 'node'");
			return `${contextData.workflow.id}\nn:${contextData.node.id}`;
		}
		return `${contextData.workflow.id}\n`;
	}

	private static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	private check(method: string, scope: DeduplicationScope, items?: DeduplicationItemTypes[]) {
		this.calls.push({ method, scope, items: items?.map(String) });
		if (this.failWith) throw this.failWith;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.check('checkProcessedAndRecord', scope, items);
		if (options.mode !== 'entries') throw new Error('Only the "entries" mode is modelled here');
		const name = InMemoryDeduplicator.listName(scope, contextData);
		const list = [...(this.lists.get(name) ?? [])];
		const before = new Set(list);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = InMemoryDeduplicator.hash(item);
			if (before.has(hash)) output.processed.push(item);
			else {
				output.new.push(item);
				list.push(hash);
			}
		}
		if (options.maxEntries) list.splice(0, Math.max(0, list.length - options.maxEntries));
		if (this.writesLostToAnotherProcess > 0) this.writesLostToAnotherProcess--;
		else this.lists.set(name, list);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.check('removeProcessed', scope, items);
		const list = this.lists.get(InMemoryDeduplicator.listName(scope, contextData)) ?? [];
		for (const hash of items.map(InMemoryDeduplicator.hash)) {
			const index = list.indexOf(hash);
			if (index !== -1) list.splice(index, 1);
		}
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.check('clearAllProcessedItems', scope);
		this.lists.delete(InMemoryDeduplicator.listName(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.check('getProcessedDataCount', scope);
		if (options.mode !== 'entries') return 0;
		return this.lists.get(InMemoryDeduplicator.listName(scope, contextData))?.length ?? 0;
	}

	/** Fills a node's list with `count` unrelated entries (a store that has reached its size). */
	fill(workflowId: string, nodeId: string, count: number): void {
		const name = `${workflowId}\nn:${nodeId}`;
		const list = this.lists.get(name) ?? [];
		for (let i = 0; i < count; i++) list.push(InMemoryDeduplicator.hash(`filler-${i}`));
		this.lists.set(name, list);
	}

	/** Forgets everything (a fresh n8n database). */
	reset(): void {
		this.lists.clear();
		this.calls.length = 0;
		this.failWith = undefined;
		this.writesLostToAnotherProcess = 0;
	}
}

/** The store of this test process, installed into n8n-core once. */
export const deduplicationStore = new InMemoryDeduplicator();

let installed = false;
export async function installDeduplicationStore(): Promise<void> {
	if (installed) return;
	installed = true;
	await DataDeduplicationService.init(deduplicationStore);
}
