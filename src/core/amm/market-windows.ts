/**
 * The windowed market data — /volume, /stats, the aggregator tickers' and the websocket ticker's
 * pair activity — computed from the swap-event index (swap-event-index.ts) in O(log n) per window
 * instead of a scan of the window's events (issue 11: the server's cost must not grow with the
 * history). Each function returns exactly what its scanning reference returns (computeVolumeWindow,
 * computeStats, computeAverageExecutionSeconds, computePairActivity in volume.ts, stats.ts,
 * tickers.ts; test/amm/market-windows.test.ts compares them on random event streams) and falls back
 * to that reference when the index is not exact.
 */

import { Dec, ZERO } from '../money/decimal.js';
import type { AggregatorTicker } from '../wire/aggregator.js';
import type { SwapStats } from '../wire/stats.js';
import type { VolumeTotals } from '../wire/volume.js';
import { formatSeconds } from './format.js';
import { toDec } from './state-decimal.js';
import { computeAverageExecutionSeconds, computeStats, computeTotalTvlCc, formatSwapStats } from './stats.js';
import { formatScaledAmount, type SwapEventLog } from './swap-event-index.js';
import {
  computePairActivity,
  computeTickers,
  computeTickersWith,
  type PairActivity,
  type TickersInput,
} from './tickers.js';
import type { Amount, PoolState, TokenRef } from './types.js';
import { computeVolumeWindow } from './volume.js';

const HOUR_MS = 3_600_000;
const DAY = 86_400_000;

const decOf = (v: bigint): Dec => new Dec(formatScaledAmount(v));

/** GET /volume totals of [startMs, endMs) (= computeVolumeWindow over those events). */
export function computeVolumeWindowFromLog(log: SwapEventLog, startMs: number, endMs: number): VolumeTotals {
  if (!log.isExact()) return computeVolumeWindow({ events: log.slice(startMs, endMs), startMs, endMs });
  const t = log.totals(startMs, endMs);
  return {
    swap_count: String(t.count),
    volume_cc: formatScaledAmount(t.volumeCc),
    fees_cc: formatScaledAmount(t.lpFeeCc + t.protocolFeeCc),
    lp_fees_cc: formatScaledAmount(t.lpFeeCc),
    protocol_fees_cc: formatScaledAmount(t.protocolFeeCc),
  };
}

/** Mean execution seconds of the swaps of [fromMs, toMs), 2 decimals; null when there are none. */
export function computeAverageExecutionSecondsFromLog(
  log: SwapEventLog,
  fromMs: number,
  toMs: number,
): Amount | null {
  if (!log.isExact()) return computeAverageExecutionSeconds(log.slice(fromMs, toMs));
  const t = log.totals(fromMs, toMs);
  return t.count === 0 ? null : formatSeconds(decOf(t.executionSeconds).div(t.count));
}

export interface StatsFromLogInput {
  readonly log: SwapEventLog;
  readonly pools: readonly PoolState[];
  readonly cc: TokenRef;
  readonly nowMs: number;
  readonly estimatedTimeSeconds?: Amount;
}

/** The /stats object (= computeStats over the last 90 days of events). */
export function computeStatsFromLog(x: StatsFromLogInput): SwapStats {
  const { log, nowMs } = x;
  if (!log.isExact()) {
    return computeStats({
      events: log.slice(nowMs - 90 * DAY, nowMs),
      pools: x.pools,
      cc: x.cc,
      nowMs,
      ...(x.estimatedTimeSeconds === undefined ? {} : { estimatedTimeSeconds: x.estimatedTimeSeconds }),
    });
  }
  const windowOf = (ms: number): { count: number; volume: string } => {
    const t = log.totals(nowMs - ms, nowMs);
    return { count: t.count, volume: formatScaledAmount(t.volumeCc) };
  };
  const h1 = windowOf(HOUR_MS);
  const d1 = windowOf(DAY);
  const d7 = windowOf(7 * DAY);
  const d30 = windowOf(30 * DAY);

  const todayStart = Math.floor(nowMs / DAY) * DAY;
  const firstDay = todayStart - 29 * DAY;
  const daily = Array.from({ length: 30 }, (_, i) => {
    const from = firstDay + i * DAY;
    return log.totals(from, Math.min(from + DAY, nowMs)).volumeCc;
  });

  const counts = log.executionSecondsCounts(nowMs - 30 * DAY, nowMs);
  const n = counts.reduce((s, c) => s + c.count, 0);
  const total = decOf(log.totals(nowMs - 30 * DAY, nowMs).executionSeconds);
  const avg = n === 0 ? ZERO : total.div(n);
  const estimate =
    x.estimatedTimeSeconds === undefined ? avg.toDecimalPlaces(2) : toDec(x.estimatedTimeSeconds);
  const histogram = new Map<number, number>();
  let within = 0;
  for (const c of counts) {
    const whole = c.seconds.floor().toNumber();
    histogram.set(whole, (histogram.get(whole) ?? 0) + c.count);
    if (c.seconds.lte(estimate)) within += c.count;
  }
  const fastest = counts[0]?.seconds ?? null;

  return formatSwapStats({
    windows: [h1, d1, d7, d30],
    histogram,
    avg,
    within,
    n,
    fastest,
    firstDayMs: firstDay,
    dailyVolumes: daily.map((v) => formatScaledAmount(v)),
    tvlCc: computeTotalTvlCc(x.pools, x.cc),
    traders: log.countTraders(nowMs - 90 * DAY, nowMs),
  });
}

/** A pair's activity over [fromMs, toMs) (= computePairActivity over those events). */
export function computePairActivityFromLog(
  log: SwapEventLog,
  poolIds: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): PairActivity {
  if (!log.isExact()) return computePairActivity(log.slice(fromMs, toMs), poolIds, fromMs, toMs);
  let count = 0;
  let base = 0n;
  let quote = 0n;
  let volume = 0n;
  let high: Dec | null = null;
  let low: Dec | null = null;
  for (const id of poolIds) {
    const a = log.poolActivity(id, fromMs, toMs);
    if (a.count === 0) continue;
    count += a.count;
    base += a.baseAmount;
    quote += a.quoteAmount;
    volume += a.volumeCc;
    if (a.high !== null && (high === null || a.high.gt(high))) high = a.high;
    if (a.low !== null && (low === null || a.low.lt(low))) low = a.low;
  }
  return { baseVolume: decOf(base), quoteVolume: decOf(quote), volumeCc: decOf(volume), high, low, count };
}

export type TickersFromLogInput = Omit<TickersInput, 'events'> & { readonly log: SwapEventLog };

/** GET /aggregator/tickers (= computeTickers over the trailing 24 h of events). */
export function computeTickersFromLog(x: TickersFromLogInput): AggregatorTicker[] {
  const { log, ...rest } = x;
  if (!log.isExact()) return computeTickers({ ...rest, events: log.slice(x.nowMs - DAY, x.nowMs) });
  return computeTickersWith(rest, (ids, fromMs, toMs) => computePairActivityFromLog(log, ids, fromMs, toMs));
}
