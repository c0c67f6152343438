/** English month names and their abbreviations, read in any letter case, with or without a point. */
export const MONTH_NAMES: Readonly<Record<string, number>> = {
	jan: 1,
	january: 1,
	feb: 2,
	february: 2,
	mar: 3,
	march: 3,
	apr: 4,
	april: 4,
	may: 5,
	jun: 6,
	june: 6,
	jul: 7,
	july: 7,
	aug: 8,
	august: 8,
	sep: 9,
	sept: 9,
	september: 9,
	oct: 10,
	october: 10,
	nov: 11,
	november: 11,
	dec: 12,
	december: 12,
};

/** English weekday names before a date (Friday, November 20, 2026); the date must fall on that day. */
export const WEEKDAY_NAMES: Readonly<Record<string, number>> = {
	mon: 1,
	monday: 1,
	tue: 2,
	tues: 2,
	tuesday: 2,
	wed: 3,
	wednesday: 3,
	thu: 4,
	thur: 4,
	thurs: 4,
	thursday: 4,
	fri: 5,
	friday: 5,
	sat: 6,
	saturday: 6,
	sun: 7,
	sunday: 7,
};

/** A name's number in a table (MONTH_NAMES, WEEKDAY_NAMES), in any letter case; undefined for none. */
export const numberOfName = (table: Readonly<Record<string, number>>, word: string | undefined) =>
	word === undefined ? undefined : table[word.toLowerCase()];
