/**
 * The rate estimate (scheduling/rate.ts) on its own: a pure unit told the time by its caller, so each
 * case feeds it answers at chosen times and reads the rate it comes to.
 */
import type * as RateModule from '../../nodes/Inventory/scheduling/rate';
import { fromDist } from '../harness/engine';

const { RateEstimate } = fromDist('./nodes/Inventory/scheduling/rate.js') as typeof RateModule;

type Estimate = InstanceType<typeof RateEstimate>;

/** `count` attempts sent and taken by the server, evenly over `ms` from `from`; returns the end time. */
function takenOver(rate: Estimate, from: number, count: number, ms: number): number {
	for (let i = 1; i <= count; i++)
		rate.answered(from + (i * ms) / count, rate.send(), 'answered', 20, 50);
	return from + ms;
}

describe('the first cut', () => {
	test('is 0.7 x what the server took in the last second', () => {
		const rate = new RateEstimate();
		const end = takenOver(rate, 0, 300, 1500);
		rate.answered(end, rate.send(), 'throttled', 20, 50);
		// 200 of the 300 answers came in the last second.
		expect(rate.rate).toBeCloseTo(0.7 * 200);
	});

	test('counts only the traffic since the latest quiet spell: what the server took before it says nothing of now', () => {
		const rate = new RateEstimate();
		const firstRunEnd = takenOver(rate, 0, 400, 1000);
		// A quarter of a second without traffic (another run starts), then 100 answers in 0.3 s.
		rate.resume(250);
		const end = takenOver(rate, firstRunEnd + 250, 100, 300);
		rate.answered(end, rate.send(), 'throttled', 20, 50);
		expect(rate.rate).toBeCloseTo(0.7 * 100);
	});

	test("a moment without traffic shorter than an answer (one record's items, one after another) is no break", () => {
		const rate = new RateEstimate();
		// 50 items in a second, each sent when the one before was answered (20 ms), 2 ms between them.
		let now = 0;
		for (let i = 0; i < 50; i++) {
			rate.resume(2);
			now += 2 + 18;
			rate.answered(now, rate.send(), 'answered', 18, 50);
		}
		rate.answered(now, rate.send(), 'throttled', 18, 50);
		expect(rate.rate).toBeCloseTo(0.7 * 50);
	});
});

describe('the slow start, before the first 429', () => {
	/** The window after one round trip: the first 10 sent at once, each answered after `answerMs`. */
	function afterOneRoundTrip(answerMs: number): Estimate {
		const rate = new RateEstimate();
		const sent = Array.from({ length: rate.slots(50) }, () => rate.send());
		for (const sendNumber of sent) rate.answered(answerMs, sendNumber, 'answered', answerMs, 50);
		return rate;
	}

	test('grows by a request an answer (doubling per round trip) once the fastest takes 150 ms, in proportion below, by half a request from 75 ms down', () => {
		expect(afterOneRoundTrip(150).slots(50)).toBe(20);
		expect(afterOneRoundTrip(400).slots(50)).toBe(20);
		expect(afterOneRoundTrip(105).slots(50)).toBe(17);
		expect(afterOneRoundTrip(75).slots(50)).toBe(15);
		expect(afterOneRoundTrip(20).slots(50)).toBe(15);
		expect(afterOneRoundTrip(150).slots(15)).toBe(15);
	});

	test("stops counting the answers a faster one shows to have waited in a queue (a process's slow first requests); from the eighth answer in a row that queued, each adds a quarter request", () => {
		const rate = afterOneRoundTrip(450);
		expect(rate.slots(50)).toBe(20);
		// 70 ms: the ten at 450 ms waited (more than 1.2 x 70 ms + 5 ms); this one adds half a request.
		rate.answered(520, rate.send(), 'answered', 70, 50);
		expect(rate.slots(50)).toBe(10);
		// The next 19 answers as fast add 9.5 more; slower ones (90 ms) nothing, seven in a row.
		for (let i = 0; i < 19; i++) rate.answered(600, rate.send(), 'answered', 80, 50);
		for (let i = 0; i < 7; i++) rate.answered(650, rate.send(), 'answered', 90, 50);
		expect(rate.slots(50)).toBe(20);
		// The 8th to the 11th a quarter each (21); a fast one (half a request, 21.5) ends the row, and
		// the next two slow ones add nothing (at a quarter each they would make 22).
		for (let i = 0; i < 4; i++) rate.answered(700, rate.send(), 'answered', 90, 50);
		expect(rate.slots(50)).toBe(21);
		rate.answered(710, rate.send(), 'answered', 70, 50);
		for (let i = 0; i < 2; i++) rate.answered(720, rate.send(), 'answered', 90, 50);
		expect(rate.slots(50)).toBe(21);
	});

	test('begins again from 10 after a second without traffic', () => {
		const rate = afterOneRoundTrip(150);
		rate.resume(999);
		expect(rate.slots(50)).toBe(20);
		rate.resume(1000);
		expect(rate.slots(50)).toBe(10);
	});
});

describe('after a cut', () => {
	test("regrows along CUBIC's curve to the peak, and beyond it by at least a tenth of the peak a second", () => {
		const rate = new RateEstimate();
		const end = takenOver(rate, 0, 100, 1000);
		rate.answered(end, rate.send(), 'throttled', 20, 50);
		expect(rate.rate).toBeCloseTo(70);
		// K = cbrt(100 x 0.3 / 0.4): the curve is back at the peak, flat.
		const k = 1000 * Math.cbrt(75);
		const rateAt = (ms: number) => {
			rate.answered(end + ms, rate.send(), 'answered', 20, 50);
			return rate.rate as number;
		};
		expect(rateAt(k / 2)).toBeCloseTo(100 - 0.4 * (k / 2000) ** 3);
		expect(rateAt(k)).toBeCloseTo(100);
		// One second beyond K: CUBIC alone would stand at 100.4; two seconds: 103.2.
		expect(rateAt(k + 1000)).toBeCloseTo(110);
		expect(rateAt(k + 2000)).toBeCloseTo(120);
		// Far beyond it, CUBIC's steeper curve: 0.4 x 6^3 = 86.4 more, where the line gives 60.
		expect(rateAt(k + 6000)).toBeCloseTo(186.4);
	});
});
