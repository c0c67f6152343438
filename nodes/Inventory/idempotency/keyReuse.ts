import { recordLabel, type InventoryRecord } from '../model/record';
import type { Wording } from '../transport';
import type { ActionKind } from './keys';
import type { KeySource } from './keySource';

/** `a to-do` → `A to-do`: the noun at the start of a sentence. */
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** `a to-do` → `to-do`: the noun after "the" or "another". */
const withoutArticle = (noun: string) => noun.replace(/^an? /, '');

/** What a row's key is made of, in words: `the operation, the record, the to-do's name and the row's key values`. */
function keyParts(kind: ActionKind): string {
	const distinction =
		kind.distinguishedBy === undefined
			? ''
			: `, the ${withoutArticle(kind.noun)}'s ${kind.distinguishedBy}`;
	return `the operation, the record${distinction} and the row's key values`;
}

/**
 * The words of a 409 saying a row's key was used before with other values: the action for this row
 * on this record was booked before (by this workflow or any other: the key holds no node name and no
 * workflow), and the first booking stands. First what the user can do: a corrected row is corrected
 * in Inventory; another action for the same row needs an identity of its own. Undefined where the
 * key is not a row's (a tool call's arguments, the execution): the transport's own words say it
 * then. The transport adds what the API said and the item's tag.
 */
export function keyReuseWords(
	source: KeySource,
	kind: ActionKind,
): (key: string, record: InventoryRecord, rowName: string) => Wording | undefined {
	if (source.basis !== 'columns' && source.basis !== 'expression') return () => undefined;
	const noun = withoutArticle(kind.noun);
	const ownIdentity =
		source.basis === 'columns'
			? 'add a column that tells the two apart (e.g. a revision) to Key Columns'
			: 'add a part that tells the two apart (e.g. a revision) to the Row Key';
	const otherName =
		kind.distinguishedBy === undefined ? '' : `, or give it another ${kind.distinguishedBy}`;
	return (key, record, rowName) => ({
		message: `${capitalized(kind.noun)} for this row on ${recordLabel(record)} was booked before with other values, and the Inventory API keeps that booking (409)`,
		description: `If the row was corrected after it was booked, correct the ${noun} in Inventory: the API does not change a booking. If this is another ${noun} for the same row, give it an identity of its own: ${ownIdentity}${otherName}. The Idempotency-Key ${key} is made of ${keyParts(kind)} (${rowName}); the node's name and the workflow play no part, so any workflow that books this row on ${recordLabel(record)} sends it.`,
	});
}
