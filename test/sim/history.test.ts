/** prefillHistory and startTraffic (docs/protocol/api-decisions.md §5 traffic generator). */
import { describe, expect, it } from 'vitest';
import { startTraffic } from '../../src/sim/traffic.js';
import { openTestLedger, T0 } from './helpers.js';

const HOUR = 3600_000;

describe('prefillHistory', () => {
  it('produces swaps spread over the trailing window, time-stamped in the past, with valid chains', () => {
    const { exchange: ex } = openTestLedger({ seed: 'prefill' });
    const r = ex.prefillHistory({ duration: 6 * HOUR, swapsPerMinute: 1 });
    expect(r.fromMs).toBe(T0 - 6 * HOUR);
    expect(r.toMs).toBe(T0);
    expect(r.executed + r.refunded).toBe(360);
    expect(r.executed).toBeGreaterThan(300);
    const events = ex.swapEvents(T0 - 6 * HOUR, T0);
    expect(events.length).toBeGreaterThanOrEqual(r.executed);
    for (let h = 0; h < 6; h++) {
      expect(ex.swapEvents(T0 - (h + 1) * HOUR, T0 - h * HOUR).length).toBeGreaterThan(20);
    }
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.tsMs).toBeGreaterThanOrEqual(events[i - 1]!.tsMs);
      expect(events[i]!.seq).toBeGreaterThan(events[i - 1]!.seq);
    }
    expect(ex.countTraders(T0 - 6 * HOUR, T0)).toBeGreaterThan(20);
    // Connect swaps route through the deepest pool of a pair, so the two shallower twins get none
    const shallow = ['7741952063284100513', '6618840259037714410'];
    expect([...new Set(events.map((e) => e.poolId))].sort()).toEqual(
      ex
        .pools()
        .map((p) => p.poolId)
        .filter((id) => !shallow.includes(id))
        .sort(),
    );
    // reserve contracts are created at the events' past ledger times
    const pool = ex.pools()[0]!;
    expect(Number(pool.reserveContract.createdAtMicros / 1000n)).toBeLessThan(T0);
    expect(Number(pool.reserveContract.createdAtMicros / 1000n)).toBeGreaterThanOrEqual(T0 - 6 * HOUR);
    // nothing is left to fill
    expect(ex.prefillHistory({ duration: 6 * HOUR, swapsPerMinute: 1 }).executed).toBe(0);
  });

  it('reports its progress about every 1 % of the swaps, ending with the total', () => {
    const { exchange: ex } = openTestLedger({ seed: 'prefill-progress' });
    const seen: [number, number][] = [];
    ex.prefillHistory({ duration: 6 * HOUR, swapsPerMinute: 1, onProgress: (d, t) => seen.push([d, t]) });
    expect(seen.length).toBe(120);
    expect(seen.every(([, t]) => t === 360)).toBe(true);
    expect(seen.map(([d]) => d)).toEqual(Array.from({ length: 120 }, (_, i) => (i + 1) * 3));
  });

  it('swapEvents windows are half-open', () => {
    const { exchange: ex } = openTestLedger({ seed: 'half-open' });
    ex.prefillHistory({ duration: HOUR, swapsPerMinute: 1 });
    const all = ex.swapEvents(0, T0 + 1);
    const t = all[10]!.tsMs;
    const left = ex.swapEvents(0, t);
    const right = ex.swapEvents(t, T0 + 1);
    expect(left.length + right.length).toBe(all.length);
    expect(right[0]!.tsMs).toBe(t);
    expect(ex.swapEvents(t, t)).toEqual([]);
  });

  it('rejects bad options', () => {
    const { exchange: ex } = openTestLedger();
    expect(() => ex.prefillHistory({ duration: -1, swapsPerMinute: 1 })).toThrow(
      expect.objectContaining({ code: 'SIMULATOR_OPTION_INVALID' }),
    );
    expect(() => ex.runAt(0, () => 1)).toThrow(expect.objectContaining({ code: 'SIMULATOR_OPTION_INVALID' }));
  });
});

describe('startTraffic', () => {
  it('sends swaps on its schedule until stopped', () => {
    const { exchange: ex, clock } = openTestLedger({ seed: 'traffic' });
    const queue: { fn: () => void; ms: number }[] = [];
    const handle = startTraffic({
      swapsPerMinute: 60,
      rng: ex.rng,
      exchange: ex,
      clock,
      schedule: (fn, ms) => {
        const item = { fn, ms };
        queue.push(item);
        return { cancel: () => queue.splice(queue.indexOf(item), 1) };
      },
    });
    for (let i = 0; i < 25; i++) {
      const next = queue.shift()!;
      expect(next.ms).toBeGreaterThanOrEqual(1);
      clock.advanceMs(next.ms);
      next.fn();
    }
    expect(handle.count()).toBe(25);
    expect(ex.swapEvents(T0, clock.nowMs() + 1).length).toBeGreaterThan(15);
    handle.stop();
    expect(queue).toHaveLength(0);
    expect(() => startTraffic({ swapsPerMinute: 0, rng: ex.rng, exchange: ex })).toThrow(
      expect.objectContaining({ code: 'SIMULATOR_OPTION_INVALID' }),
    );
  });
});

describe('CC-USD reference price stream', () => {
  it('moves around the seed price, is constant within a minute and deterministic', async () => {
    const { computeReferencePrice } = await import('../../src/sim/reference-price.js');
    const { exchange: ex, clock } = openTestLedger({ seed: 'price' });
    const p0 = ex.ccUsdPrice();
    expect(p0).toMatch(/^0\.1\d{9}$/);
    expect(p0).toBe(computeReferencePrice('0.1520000000', T0));
    expect(ex.ccUsdPriceAt(T0 + 59_999)).toBe(ex.ccUsdPriceAt(T0 - (T0 % 60_000)));
    const day = Array.from({ length: 48 }, (_, i) => Number(ex.ccUsdPriceAt(T0 + i * 1_800_000)));
    expect(Math.max(...day) - Math.min(...day)).toBeGreaterThan(0.152 * 0.03);
    for (const p of day) expect(Math.abs(p / 0.152 - 1)).toBeLessThanOrEqual(0.0251);
    clock.advanceMs(6 * HOUR);
    expect(ex.ccUsdPrice()).toBe(ex.ccUsdPriceAt(T0 + 6 * HOUR));
    expect(ex.ccUsdPrice()).not.toBe(p0);
  });
});
