/** Body validation of POST /api/v1/assets/{record}/todos. */
import {
	charLength,
	checkUnknown,
	Collector,
	has,
	isCalendarDate,
	NAME_MAX,
	optionalText,
	TEXT_MAX,
	type Validated,
} from './fields';

export interface TodoInput {
	name: string;
	notes: string | null;
	due_date: string | null;
	assigned_to: number | null;
	is_complete: boolean;
}

export function validateTodo(
	body: Record<string, unknown>,
	org: { userIds: Set<number>; personIds: Set<number> },
): Validated<TodoInput> {
	const c = new Collector();
	checkUnknown(body, ['name', 'notes', 'due_date', 'assigned_to', 'is_complete'], c);

	let name = '';
	if (!has(body, 'name') || body.name === null) c.add('name', 'The name field is required.');
	else if (typeof body.name !== 'string') c.add('name', 'The name field must be a string.');
	else if (body.name.trim() === '') c.add('name', 'The name field may not be empty.');
	else if (charLength(body.name) > NAME_MAX)
		c.add('name', `The name field may not be greater than ${NAME_MAX} characters.`);
	else name = body.name;

	const notes = optionalText(body, 'notes', TEXT_MAX, c);

	let dueDate: string | null = null;
	if (has(body, 'due_date') && body.due_date !== null) {
		if (typeof body.due_date !== 'string' || !isCalendarDate(body.due_date)) {
			c.add('due_date', 'The due_date field must be a date in the format YYYY-MM-DD, or null.');
		} else dueDate = body.due_date;
	}

	let assignedTo: number | null = null;
	if (has(body, 'assigned_to') && body.assigned_to !== null) {
		const v = body.assigned_to;
		if (typeof v !== 'number' || !Number.isInteger(v)) {
			c.add(
				'assigned_to',
				'The assigned_to field must be an integer (organization user ID) or null.',
			);
		} else if (org.personIds.has(v)) {
			c.add(
				'assigned_to',
				`The assigned_to field must be an organization user ID; ${v} is an inventory person ID, and to-dos cannot be assigned to inventory people.`,
			);
		} else if (!org.userIds.has(v)) {
			c.add('assigned_to', `The selected assigned_to (${v}) is not a user of this organization.`);
		} else assignedTo = v;
	}

	let isComplete = false;
	if (has(body, 'is_complete')) {
		if (typeof body.is_complete !== 'boolean')
			c.add('is_complete', 'The is_complete field must be true or false.');
		else isComplete = body.is_complete;
	}

	if (!c.ok) return { ok: false, errors: c.errors };
	return {
		ok: true,
		value: {
			name,
			notes: notes ?? null,
			due_date: dueDate,
			assigned_to: assignedTo,
			is_complete: isComplete,
		},
	};
}
