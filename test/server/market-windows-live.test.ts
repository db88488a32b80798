/**
 * The live server's windowed market data (issue 11: /stats, /volume and /aggregator/tickers read
 * the swap-event index) equals the full recomputation over the simulated ledger's events: a real
 * simulated exchange with random traffic over several simulated days (so windows slide past old
 * swaps), each response compared with the scanning core functions on `swapEvents` of its window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeAverageExecutionSeconds,
  computeStats,
  computeTickers,
  computeVolumeWindow,
  DAY_MS,
} from '../../src/core/amm/index.js';
import { formatApiTimestamp } from '../../src/core/wire/timestamp.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', extraPools: 4, seed: 'market-windows' });
});
afterAll(async () => {
  await s.close();
});

const get = async (path: string): Promise<unknown> => {
  const r = await fetch(s.directBase + path);
  expect(r.status).toBe(200);
  return r.json();
};

describe('live server: windowed market data = recomputation over the ledger events', () => {
  it('after each burst of traffic (windows sliding over 3 simulated days)', async () => {
    const rng = createSeededRng('market-windows-traffic');
    const steps = [0, 1, 59_000, 3_600_000, 5 * 3_600_000, DAY_MS - 1, DAY_MS, 9 * 3_600_000, DAY_MS + 7];
    for (const step of steps) {
      for (let i = 0; i < 40; i++) simulateRandomSwap(s.ex, rng);
      s.clock.advanceMs(step + 61_000); // past the 60 s stats memo and the 30 s / 5 s caches
      const now = s.clock.nowMs();
      const events = s.ex.swapEvents(now - 90 * DAY_MS, now);
      const recent = events.filter((e) => e.tsMs >= now - 30 * DAY_MS);
      const avg = computeAverageExecutionSeconds(recent);
      const want = computeStats({
        events,
        pools: s.ex.pools(),
        cc: s.ex.cc(),
        nowMs: now,
        ...(avg === null ? {} : { estimatedTimeSeconds: avg }),
      });
      const got = (await get('/stats')) as { stats: Record<string, unknown> };
      const { pool_tvl: _tvl, ...wantRest } = want;
      const { pool_tvl: _gotTvl, ...gotRest } = got.stats;
      expect(gotRest).toEqual(JSON.parse(JSON.stringify(wantRest)));

      const vol = (await get('/volume')) as { data: Record<string, string> };
      expect(vol.data).toEqual({
        start_time: formatApiTimestamp(now - DAY_MS),
        end_time: formatApiTimestamp(now),
        ...computeVolumeWindow({
          events: s.ex.swapEvents(now - DAY_MS, now),
          startMs: now - DAY_MS,
          endMs: now,
        }),
      });
      const from = now - 2 * 3_600_000 - 17;
      const closed = (await get(
        `/volume?start_time=${encodeURIComponent(formatApiTimestamp(from))}&end_time=${encodeURIComponent(formatApiTimestamp(now - 5))}`,
      )) as { data: Record<string, string> };
      expect(closed.data.swap_count).toBe(
        computeVolumeWindow({ events: s.ex.swapEvents(from, now - 5), startMs: from, endMs: now - 5 })
          .swap_count,
      );

      const tickers = await get('/aggregator/tickers');
      expect(tickers).toEqual(
        JSON.parse(
          JSON.stringify(
            computeTickers({
              pools: s.ex.pools(),
              events: s.ex.swapEvents(now - DAY_MS, now),
              cc: s.ex.cc(),
              ccUsdPrice: s.ex.ccUsdPrice(),
              nowMs: now,
            }),
          ),
        ),
      );
    }
    expect(s.ex.swapEventLog().isExact()).toBe(true);
    expect(s.ex.swapEventLog().length).toBeGreaterThan(300);
  }, 120_000);
});
