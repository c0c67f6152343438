/**
 * The record an action changes: what the items of one record are ordered by (one after another,
 * across executions), and what messages name ("Asset 1006"). A type, not its label's text, so that
 * two operations on one asset can only name it alike.
 */
export interface InventoryRecord {
	kind: 'asset' | 'subscription';
	id: number;
}

const RECORD_NOUNS: Readonly<Record<InventoryRecord['kind'], string>> = {
	asset: 'Asset',
	subscription: 'Subscription',
};

/** The record as messages name it: `Asset 1006`, `Subscription 2001`. */
export const recordLabel = ({ kind, id }: InventoryRecord): string => `${RECORD_NOUNS[kind]} ${id}`;

/** One text per record, for maps that order or lock records: `asset:1006`. */
export const recordKey = ({ kind, id }: InventoryRecord): string => `${kind}:${id}`;
