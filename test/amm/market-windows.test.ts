/**
 * The swap-event index (issue 11) against the scanning reference computations: on random event
 * streams (bursts in one millisecond, long gaps, events exactly on the window edges, day
 * boundaries), every windowed answer of the index — /volume totals, the /stats object, the average
 * execution time, a pair's activity and first swap, the tickers, distinct traders — equals the full recomputation
 * over the window's events. Also the two building blocks (range extremes, distinct counter)
 * against naive scans, and the fallback when an event breaks the index's assumptions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctCounter } from '../../src/core/amm/distinct-counter.js';
import {
  computeAverageExecutionSeconds,
  computeAverageExecutionSecondsFromLog,
  computePairActivity,
  computePairActivityFromLog,
  computeStats,
  computeStatsFromLog,
  computeTickers,
  computeTickersFromLog,
  computeVolumeWindow,
  computeVolumeWindowFromLog,
  Dec,
  formatScaledAmount,
  type SwapEvent,
  SwapEventIndex,
} from '../../src/core/amm/index.js';
import { RangeExtremes } from '../../src/core/amm/range-extremes.js';
import { CC, makeEvent, seedPools } from './fixtures.js';

const H = 3_600_000;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 5, 1, 0, 0, 0);
const POOLS = seedPools();

/** an amount with 0..10 places (the string as the ledger writes it, or shorter) */
const amount = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.integer({ min: 0, max: 10 }))
  .map(([v, places]) => {
    const s = formatScaledAmount(v);
    return places === 0 ? s.split('.')[0]! : s.slice(0, s.length - (10 - places));
  });

/** time steps: many zero (same millisecond), some small, some hours, some days */
const step = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 1, max: 6 * H }),
  fc.integer({ min: 1, max: 20 * DAY }),
);

const eventSpec = fc.record({
  step,
  pool: fc.constantFrom('1', '2', '3', '4', '5', '9'),
  trader: fc.integer({ min: 0, max: 12 }),
  volumeCc: amount,
  lpFeeCc: amount,
  protocolFeeCc: amount,
  baseAmount: amount,
  quoteAmount: amount,
  priceAfter: fc.oneof(amount, fc.constantFrom('0.15', '0.150000000000000001', '7', '0.000000000001')),
  executionSeconds: fc.integer({ min: 0, max: 1600 }).map((c) => (c / 100).toFixed(2)),
});

type EventSpec = typeof eventSpec extends fc.Arbitrary<infer T> ? T : never;

function buildEvents(specs: readonly EventSpec[]): SwapEvent[] {
  let t = T0;
  return specs.map((s, i) => {
    t += s.step;
    return makeEvent({
      seq: i + 1,
      tsMs: t,
      poolId: s.pool,
      trader: `trader-${s.trader}::1220`,
      volumeCc: s.volumeCc,
      lpFeeCc: s.lpFeeCc,
      protocolFeeCc: s.protocolFeeCc,
      baseAmount: s.baseAmount,
      quoteAmount: s.quoteAmount,
      priceAfter: s.priceAfter,
      executionSeconds: s.executionSeconds,
    });
  });
}

/** query times: on an event, one ms either side, on a day boundary, before and after everything */
function queryTimes(events: readonly SwapEvent[], picks: readonly number[]): number[] {
  const out = [T0 - 1, T0, (events.at(-1)?.tsMs ?? T0) + 1, (events.at(-1)?.tsMs ?? T0) + 91 * DAY];
  for (const k of picks) {
    const e = events[k % Math.max(1, events.length)];
    if (e === undefined) continue;
    out.push(e.tsMs, e.tsMs + 1, e.tsMs - 1, Math.floor(e.tsMs / DAY) * DAY, e.tsMs + 30 * DAY, e.tsMs + H);
  }
  return out;
}

const streams = fc.record({
  specs: fc.array(eventSpec, { minLength: 0, maxLength: 120 }),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
});

describe('swap-event index = full recomputation (differential, random streams incl. window edges)', () => {
  it('/volume totals of any window', () => {
    fc.assert(
      fc.property(
        streams,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
        ({ specs, picks }, wins) => {
          const events = buildEvents(specs);
          const log = new SwapEventIndex(events);
          expect(log.isExact()).toBe(true);
          const times = queryTimes(events, picks);
          for (const [i, j] of wins) {
            const a = times[i % times.length]!;
            const b = times[j % times.length]!;
            const [startMs, endMs] = a <= b ? [a, b] : [b, a];
            expect(computeVolumeWindowFromLog(log, startMs, endMs)).toEqual(
              computeVolumeWindow({ events, startMs, endMs }),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('/stats (with and without a given estimate), the average execution time and distinct traders', () => {
    fc.assert(
      fc.property(
        streams,
        fc.option(fc.constantFrom('5.00', '7.25', '0.00', '16.00')),
        ({ specs, picks }, est) => {
          const events = buildEvents(specs);
          const log = new SwapEventIndex(events);
          for (const nowMs of queryTimes(events, picks)) {
            const estimate = est === null ? {} : { estimatedTimeSeconds: est };
            const want = computeStats({
              events: events.filter((e) => e.tsMs >= nowMs - 90 * DAY && e.tsMs < nowMs),
              pools: POOLS,
              cc: CC,
              nowMs,
              ...estimate,
            });
            expect(computeStatsFromLog({ log, pools: POOLS, cc: CC, nowMs, ...estimate })).toEqual(want);
            const recent = events.filter((e) => e.tsMs >= nowMs - 30 * DAY && e.tsMs < nowMs);
            expect(computeAverageExecutionSecondsFromLog(log, nowMs - 30 * DAY, nowMs)).toBe(
              computeAverageExecutionSeconds(recent),
            );
            for (const from of [nowMs - H, nowMs - 90 * DAY, T0]) {
              const seen = new Set(
                events.filter((e) => e.tsMs >= from && e.tsMs < nowMs).map((e) => e.trader),
              );
              expect(log.countTraders(from, nowMs)).toBe(seen.size);
            }
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('pair activity (sums, count, high, low) and the aggregator tickers', () => {
    fc.assert(
      fc.property(streams, fc.subarray(['1', '2', '3', '4', '5', '9', 'none']), ({ specs, picks }, ids) => {
        const events = buildEvents(specs);
        const log = new SwapEventIndex(events);
        const poolIds = new Set(ids);
        for (const nowMs of queryTimes(events, picks)) {
          for (const [fromMs, toMs] of [
            [nowMs - DAY, nowMs],
            [nowMs - DAY, nowMs + 1],
            [nowMs, nowMs],
          ] as const) {
            expect(log.firstEvent(poolIds, fromMs, toMs)).toBe(
              events.find((e) => poolIds.has(e.poolId) && e.tsMs >= fromMs && e.tsMs < toMs),
            );
            const want = computePairActivity(events, poolIds, fromMs, toMs);
            const got = computePairActivityFromLog(log, poolIds, fromMs, toMs);
            expect({ ...got, high: got.high?.toString(), low: got.low?.toString() }).toEqual({
              ...want,
              high: want.high?.toString(),
              low: want.low?.toString(),
            });
          }
          const base = { pools: POOLS, cc: CC, ccUsdPrice: '0.1523', nowMs };
          expect(computeTickersFromLog({ ...base, log })).toEqual(computeTickers({ ...base, events }));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('an event the index cannot sum exactly (11 places, or out of time order) switches to the scanning path', () => {
    const events = [
      makeEvent({ seq: 1, tsMs: T0, volumeCc: '1.5' }),
      makeEvent({ seq: 2, tsMs: T0 + 10, volumeCc: '0.00000000001' }),
      makeEvent({ seq: 3, tsMs: T0 + 20, volumeCc: '2' }),
    ];
    const log = new SwapEventIndex(events);
    expect(log.isExact()).toBe(false);
    const want = computeVolumeWindow({ events, startMs: T0, endMs: T0 + 30 });
    expect(want.volume_cc).toBe('3.5000000000');
    expect(computeVolumeWindowFromLog(log, T0, T0 + 30)).toEqual(want);
    expect(() => log.totals(T0, T0 + 30)).toThrow(/AMM_EVENT_INDEX_INEXACT|expected 10-place amounts/);
    const late = new SwapEventIndex([events[0]!, makeEvent({ seq: 2, tsMs: T0 - 5 })]);
    expect(late.isExact()).toBe(false);
    expect(late.slice(T0 - 10, T0 + 1)).toHaveLength(2);
    expect(computeStatsFromLog({ log: late, pools: POOLS, cc: CC, nowMs: T0 + 1 })).toEqual(
      computeStats({ events: late.slice(T0 + 1 - 90 * DAY, T0 + 1), pools: POOLS, cc: CC, nowMs: T0 + 1 }),
    );
  });
});

describe('index building blocks against naive scans', () => {
  it('RangeExtremes: max and min of any range, earliest on ties', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat())),
        (xs, qs) => {
          const r = new RangeExtremes<{ v: number; i: number }>((a, b) => a.v - b.v);
          xs.forEach((v, i) => {
            r.push({ v, i });
          });
          for (const [p, q] of qs) {
            const a = p % (xs.length + 1);
            const b = q % (xs.length + 1);
            const got = r.query(a, b);
            if (a >= b) {
              expect(got).toBeUndefined();
              continue;
            }
            let max = a;
            let min = a;
            for (let i = a; i < b; i++) {
              if (xs[i]! > xs[max]!) max = i;
              if (xs[i]! < xs[min]!) min = i;
            }
            expect(got).toEqual({ max: { v: xs[max], i: max }, min: { v: xs[min], i: min } });
          }
        },
      ),
    );
  });

  it('DistinctCounter: distinct keys of any range while the sequence grows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 200 }),
        fc.array(fc.tuple(fc.nat(), fc.nat())),
        (xs, qs) => {
          const d = new DistinctCounter();
          xs.forEach((x, n) => {
            d.push(String(x));
            for (const [p, q] of qs) {
              const a = p % (n + 2);
              const b = q % (n + 2);
              expect(d.count(a, b)).toBe(new Set(xs.slice(a, Math.min(b, n + 1))).size);
            }
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('formatScaledAmount: 10 places, sign, no "-0"', () => {
    expect(formatScaledAmount(0n)).toBe('0.0000000000');
    expect(formatScaledAmount(-1n)).toBe('-0.0000000001');
    expect(formatScaledAmount(123_4567890123n)).toBe('123.4567890123');
    expect(new Dec(formatScaledAmount(10n ** 30n)).eq(new Dec('1e20'))).toBe(true);
  });
});
