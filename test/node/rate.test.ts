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
