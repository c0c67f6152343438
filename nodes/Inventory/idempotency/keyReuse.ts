import type { Wording } from '../transport/wording';
import { ROW_KEY_PARTS } from './keys';
import type { KeySource } from './keySource';

/**
 * The words of a 409 saying a row's key was used before with other values, by where the key comes
 * from: this step booked this row on this record before (a row corrected after it was booked, the
 * node's fixed values edited, or a step of the same name in a copy of the workflow), and the first
 * booking stands. Undefined where the key is not a row's (a tool call's arguments, the execution):
 * the transport's own words say it then. The transport adds what the API said.
 */
export function keyReuseWords(
	source: KeySource,
): (key: string, recordLabel: string) => Wording | undefined {
	if (source.basis !== 'columns' && source.basis !== 'expression') return () => undefined;
	const booked = (recordLabel: string) =>
		`The Inventory API refused this row (409): this step booked ${recordLabel} for the same row before, with other values, and keeps that booking`;
	if (source.basis === 'columns' && source.columns.length === 0)
		return (key, recordLabel) => ({
			message: booked(recordLabel),
			description: `Key Columns is empty, so this step acts once per record and the Idempotency-Key ${key} is the same for every row on ${recordLabel}; the first booking stands. To book each row, name the input column that identifies a row in Key Columns (e.g. po_number).`,
		});
	const [where, ownKey] =
		source.basis === 'columns'
			? ['Key Columns', 'add a column such as a revision to Key Columns']
			: ['the Row Key', 'add a part such as a revision to the Row Key'];
	return (key, recordLabel) => ({
		message: booked(recordLabel),
		description: `The Idempotency-Key ${key} is this row's (${where}, with ${ROW_KEY_PARTS}), and the first booking with it stands: the API does not change it. If the row was corrected after it was booked, correct the record in Inventory; to book the corrected row as an action of its own, give it a key of its own (${ownKey}). If another node of the same name, e.g. in a copy of this workflow, booked other values for this row, rename one of the two.`,
	});
}
