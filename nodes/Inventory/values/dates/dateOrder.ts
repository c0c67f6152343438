import { field, ONE_OF_FORM_OPTIONS } from '../field';

// Options → Date Order: how a date whose day and month could be either (04/05/2026) is read. The
// Options collection lists it (actions/options.description.ts); ItemInput reads it.

/** Read once per run, from the first item, when a date needs it (ItemInput). */
export const dateOrderOption = field({
	property: {
		displayName: 'Date Order',
		name: 'dateOrder',
		type: 'options',
		default: 'dayFirst',
		options: [
			{
				name: 'Day First',
				value: 'dayFirst',
				description: '04/05/2026 is 4 May 2026, as in most of Europe',
			},
			{
				name: 'Month First',
				value: 'monthFirst',
				description: '04/05/2026 is April 5, 2026, as in the US',
			},
		],
		description:
			'How to read dates whose day and month could be either, like 04/05/2026: every row is read this way',
		hint: 'Dates with one reading need no order: 20/11/2026, 11/20/2026, 2026-11-20, Nov 20, 2026. With an order set, a date that reads only the other way (11/20/2026 with Day First) is refused.',
	},
	check: ONE_OF_FORM_OPTIONS,
});
