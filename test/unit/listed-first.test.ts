/** model/listedFirst.ts: how a message lists items, the first ten and then how many more. */
import type * as ListedFirst from '../../nodes/Inventory/model/listedFirst';
import { fromDist } from '../harness/engine';

const { listedFirst, listedIndexes, LISTED_ITEMS } = fromDist(
	'./nodes/Inventory/model/listedFirst.js',
) as typeof ListedFirst;

const indexes = (count: number) => Array.from({ length: count }, (_, index) => String(index));

test('ten items are listed whole; from the eleventh, the rest are counted', () => {
	expect(LISTED_ITEMS).toBe(10);
	expect(listedFirst(indexes(10), LISTED_ITEMS)).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9');
	expect(listedFirst(indexes(12), LISTED_ITEMS)).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more');
});

test('with "; " between them, the count follows a semicolon, as a list of sentences reads', () => {
	expect(listedFirst(['a', 'b', 'c', 'd'], 2, '; ')).toBe('a; b; and 2 more');
	expect(listedFirst(['a', 'b'], 2, '; ')).toBe('a; b');
});

test('item indexes are listed the same way: the first ten, then how many more', () => {
	expect(listedIndexes([4])).toBe('4');
	expect(listedIndexes(indexes(12).map(Number))).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more');
});
