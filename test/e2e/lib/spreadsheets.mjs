// The purchase sheet of the spreadsheet checks, as two files a user would export from Excel: a CSV as
// Excel's "CSV UTF-8" saves it (a byte order mark, CRLF, every cell as displayed in a US locale:
// `11/20/2025`, `9/14/2025 14:30`, `1,249.00`, quotes around a cell with a comma) and an .xlsx with
// real date and number cells (numbers with a number format, as Excel stores them). Both are made here
// at test time from one table, the .xlsx with the xlsx library n8n itself reads spreadsheets with.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { HOST_DIR } from './host.mjs';

/** Event type 301 is "Purchase" in the sandbox's seed organization. */
export const PURCHASE_EVENT_TYPE = 301;
/** The spreadsheet workflows' time zone: dates without an offset are read in it. */
export const SHEET_TIME_ZONE = 'America/New_York';
export const CSV_FILE = 'purchases.csv';
export const XLSX_FILE = 'purchases.xlsx';
export const COLUMNS = ['po_number', 'line', 'asset_id', 'date', 'price', 'vendor'];

/**
 * The sheet's rows, in order. `date` is [year, month, day, hour?, minute?]; `sent` is the event_date
 * the node must send for it (the workflow's time zone, with its offset). The third row's price is no
 * amount: it must end on the error output and nothing be sent for it. 10/1/2025 has two readings
 * (1 October, 10 January): the workflows state the order once, month first, as the CSV's US locale writes it.
 */
export const SHEET_ROWS = [
	{
		po_number: 4711,
		line: 1,
		asset_id: 1011,
		date: [2025, 11, 20],
		price: 1249,
		vendor: 'ACME Hardware',
		sent: '2025-11-20T00:00:00-05:00',
	},
	{
		po_number: 4711,
		line: 2,
		asset_id: 1012,
		date: [2025, 11, 20],
		price: 1249,
		vendor: 'ACME Hardware',
		sent: '2025-11-20T00:00:00-05:00',
	},
	{
		po_number: 4714,
		line: 1,
		asset_id: 1015,
		date: [2025, 9, 15],
		price: 'TBD',
		vendor: 'Contoso',
		sent: null,
	},
	{
		po_number: 4712,
		line: 1,
		asset_id: 1013,
		date: [2025, 10, 1],
		price: 89.9,
		vendor: 'Northwind, Inc.',
		sent: '2025-10-01T00:00:00-04:00',
	},
	{
		po_number: 4713,
		line: 1,
		asset_id: 1014,
		date: [2025, 9, 14, 14, 30],
		price: 12500,
		vendor: 'Contoso',
		sent: '2025-09-14T14:30:00-04:00',
	},
];

export const isGoodRow = (row) => row.sent !== null;
export const GOOD_ROWS = SHEET_ROWS.filter(isGoodRow);
export const BAD_ROW = SHEET_ROWS.find((row) => !isGoodRow(row));

/** The request body the node must send for a good row (the API's fields). */
export function expectedBody(row) {
	return {
		event_type_id: PURCHASE_EVENT_TYPE,
		event_date: row.sent,
		acquired_from: row.vendor,
		price: row.price,
	};
}

export const acquisitionPath = (row) => `/api/v1/assets/${row.asset_id}/acquisitions`;

// ---------------------------------------------------------------------------------------------
// The CSV, as Excel (US locale) saves "CSV UTF-8 (Comma delimited)"

const twoDecimalsWithThousands = new Intl.NumberFormat('en-US', {
	minimumFractionDigits: 2,
	maximumFractionDigits: 2,
});

/** A cell as Excel displays it: m/d/yyyy (h:mm), #,##0.00. */
function displayed(column, value) {
	if (column === 'date') {
		const [year, month, day, hour, minute] = value;
		const time = hour === undefined ? '' : ` ${hour}:${String(minute).padStart(2, '0')}`;
		return `${month}/${day}/${year}${time}`;
	}
	if (column === 'price' && typeof value === 'number')
		return twoDecimalsWithThousands.format(value);
	return String(value);
}

const csvCell = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

export function csvText(rows = SHEET_ROWS) {
	const lines = [
		COLUMNS.join(','),
		...rows.map((row) =>
			COLUMNS.map((column) => csvCell(displayed(column, row[column]))).join(','),
		),
	];
	return `\uFEFF${lines.join('\r\n')}\r\n`;
}

// ---------------------------------------------------------------------------------------------
// The .xlsx: date cells are serial day numbers with a date format, amounts numbers with #,##0.00

/** The xlsx library of the host's n8n-nodes-base (n8n 2.x: @e965/xlsx; n8n 1.x: xlsx). */
function xlsxLibrary() {
	const fromNodesBase = createRequire(
		path.join(HOST_DIR, 'node_modules', 'n8n-nodes-base', 'package.json'),
	);
	for (const name of ['@e965/xlsx', 'xlsx']) {
		try {
			return fromNodesBase(name);
		} catch {
			/* the other name */
		}
	}
	throw new Error(`no xlsx library in ${HOST_DIR}: install the n8n host first`);
}

/** Excel's serial day (1900 date system): days since 1899-12-30, the time of day as the fraction. */
export function serialDay([year, month, day, hour = 0, minute = 0]) {
	const days = (Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 30)) / 86_400_000;
	return days + (hour * 60 + minute) / 1440;
}

function xlsxCell(column, value) {
	if (column === 'date')
		return { t: 'n', v: serialDay(value), z: value.length > 3 ? 'm/d/yyyy h:mm' : 'm/d/yyyy' };
	if (column === 'price' && typeof value === 'number') return { t: 'n', v: value, z: '#,##0.00' };
	return typeof value === 'number' ? { t: 'n', v: value } : { t: 's', v: value };
}

export function xlsxBuffer(rows = SHEET_ROWS) {
	const XLSX = xlsxLibrary();
	const sheet = {};
	COLUMNS.forEach((column, c) => {
		sheet[XLSX.utils.encode_cell({ r: 0, c })] = { t: 's', v: column };
		rows.forEach((row, r) => {
			sheet[XLSX.utils.encode_cell({ r: r + 1, c })] = xlsxCell(column, row[column]);
		});
	});
	sheet['!ref'] = XLSX.utils.encode_range({
		s: { r: 0, c: 0 },
		e: { r: rows.length, c: COLUMNS.length - 1 },
	});
	const workbook = XLSX.utils.book_new();
	XLSX.utils.book_append_sheet(workbook, sheet, 'Purchases');
	return XLSX.write(workbook, { bookType: 'xlsx', type: 'buffer' });
}

/** Both files into an n8n's files folder (`~/.n8n-files`); returns their paths. */
export function writeSheetFiles(filesDir) {
	fs.mkdirSync(filesDir, { recursive: true });
	const csv = path.join(filesDir, CSV_FILE);
	const xlsx = path.join(filesDir, XLSX_FILE);
	fs.writeFileSync(csv, csvText());
	fs.writeFileSync(xlsx, xlsxBuffer());
	return { csv, xlsx };
}
