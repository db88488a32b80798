/**
 * GET /stats (docs/protocol/public-api.md "Statistics", docs/protocol/api-decisions.md §5): swap counts and
 * CC volumes over 1 h / 24 h / 7 d / 30 d, daily CC volume over 30 days, total pool TVL, unique traders over
 * 90 days, and the execution-time performance of swaps (avg_speed, fastest in seconds;
 * consistency = fraction completed within the estimated time; histogram by whole seconds).
 * Returns the wire type `SwapStats` (src/core/wire/stats.ts) the auditor parses.
 */

import { Dec, ZERO } from '../money/decimal.js';
import type { SwapStats } from '../wire/stats.js';
import { formatApiTimestampSeconds } from '../wire/timestamp.js';
import { formatAmount, formatSeconds } from './format.js';
import { toDec } from './state-decimal.js';
import { computeTvlCc } from './swap-math.js';
import type { Amount, PoolState, SwapEvent, TokenRef } from './types.js';

const HOUR_MS = 3_600_000;
const DAY = 86_400_000;

export interface StatsInput {
  /** events of (at least) the last 90 days; older ones are ignored */
  readonly events: readonly SwapEvent[];
  readonly pools: readonly PoolState[];
  readonly cc: TokenRef;
  readonly nowMs: number;
  /** the quote's estimated_time_seconds for `consistency`; default: this avg_speed */
  readonly estimatedTimeSeconds?: Amount;
}

/**
 * Mean execution seconds of the events, as a 2-decimal string (estimated_time_seconds of a quote);
 * null when there are none.
 */
export function computeAverageExecutionSeconds(events: readonly SwapEvent[]): Amount | null {
  if (events.length === 0) return null;
  let total = ZERO;
  for (const e of events) total = total.add(toDec(e.executionSeconds, 'executionSeconds'));
  return formatSeconds(total.div(events.length));
}

/** The /stats object. Windows are trailing and half-open: [now − w, now). Performance over 30 days. */
export function computeStats(x: StatsInput): SwapStats {
  const inWindow = (e: SwapEvent, ms: number): boolean => e.tsMs >= x.nowMs - ms && e.tsMs < x.nowMs;
  const windowOf = (ms: number): { count: number; volume: string } => {
    let count = 0;
    let volume = ZERO;
    for (const e of x.events) {
      if (!inWindow(e, ms)) continue;
      count++;
      volume = volume.add(toDec(e.volumeCc, 'volumeCc'));
    }
    return { count, volume: formatAmount(volume) };
  };
  const h1 = windowOf(HOUR_MS);
  const d1 = windowOf(DAY);
  const d7 = windowOf(7 * DAY);
  const d30 = windowOf(30 * DAY);

  const todayStart = Math.floor(x.nowMs / DAY) * DAY;
  const firstDay = todayStart - 29 * DAY;
  const daily: Dec[] = Array.from({ length: 30 }, () => ZERO);
  const recent = x.events.filter((e) => inWindow(e, 30 * DAY));
  for (const e of x.events) {
    if (e.tsMs < firstDay || e.tsMs >= x.nowMs) continue;
    const i = Math.floor((e.tsMs - firstDay) / DAY);
    daily[i] = (daily[i] ?? ZERO).add(toDec(e.volumeCc, 'volumeCc'));
  }

  const speeds = recent.map((e) => toDec(e.executionSeconds, 'executionSeconds'));
  const histogram = new Map<number, number>();
  let total = ZERO;
  let fastest: Dec | null = null;
  for (const s of speeds) {
    total = total.add(s);
    const whole = s.floor().toNumber();
    histogram.set(whole, (histogram.get(whole) ?? 0) + 1);
    if (fastest === null || s.lt(fastest)) fastest = s;
  }
  const avg = speeds.length === 0 ? ZERO : total.div(speeds.length);
  const estimate =
    x.estimatedTimeSeconds === undefined ? avg.toDecimalPlaces(2) : toDec(x.estimatedTimeSeconds);
  const within = speeds.filter((s) => s.lte(estimate)).length;

  const traders = new Set<string>();
  for (const e of x.events) if (inWindow(e, 90 * DAY)) traders.add(e.trader);

  return formatSwapStats({
    windows: [h1, d1, d7, d30],
    histogram,
    avg,
    within,
    n: speeds.length,
    fastest,
    firstDayMs: firstDay,
    dailyVolumes: daily.map((v) => formatAmount(v)),
    tvlCc: computeTotalTvlCc(x.pools, x.cc),
    traders: traders.size,
  });
}

/** One trailing window of /stats: swap count and CC volume (formatted). */
interface StatsWindow {
  readonly count: number;
  readonly volume: string;
}

/** What a /stats object is made of, computed by a scan (computeStats) or an event index. */
export interface SwapStatsParts {
  /** the 1 h, 24 h, 7 d and 30 d windows */
  readonly windows: readonly [StatsWindow, StatsWindow, StatsWindow, StatsWindow];
  /** execution seconds (whole) → swaps over 30 days */
  readonly histogram: ReadonlyMap<number, number>;
  readonly avg: Dec;
  /** swaps completed within the estimated time, of `n` */
  readonly within: number;
  readonly n: number;
  readonly fastest: Dec | null;
  /** the first of the 30 daily buckets, and their formatted CC volumes */
  readonly firstDayMs: number;
  readonly dailyVolumes: readonly string[];
  readonly tvlCc: Amount;
  readonly traders: number;
}

/** The /stats wire object from its parts (the one place its shape and rounding are written). */
export function formatSwapStats(p: SwapStatsParts): SwapStats {
  const [h1, d1, d7, d30] = p.windows;
  return {
    swaps: {
      count_1h: h1.count,
      count_24h: d1.count,
      count_7d: d7.count,
      count_30d: d30.count,
      cc_volume_1h: h1.volume,
      cc_volume_24h: d1.volume,
      cc_volume_7d: d7.volume,
      cc_volume_30d: d30.volume,
    },
    swap_performance: {
      chart_data: [...p.histogram.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([seconds, count]) => ({ seconds, count })),
      avg_speed: p.avg.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toNumber(),
      consistency:
        p.n === 0 ? 0 : new Dec(p.within).div(p.n).toDecimalPlaces(4, Dec.ROUND_HALF_UP).toNumber(),
      fastest: p.fastest === null ? 0 : p.fastest.toNumber(),
    },
    chart_volume: p.dailyVolumes.map((v, i) => ({
      day_bucket: formatApiTimestampSeconds(p.firstDayMs + i * DAY),
      cc_volume_total: v,
    })),
    pool_tvl: { tvl_cc: p.tvlCc },
    active_traders: { count_90d: p.traders },
  };
}

/** Σ tvl_cc (2 × the CC-side reserve) of the active pools, formatted (exact: sums of 10-place amounts). */
export function computeTotalTvlCc(pools: readonly PoolState[], cc: TokenRef): Amount {
  let tvl = ZERO;
  for (const p of pools) if (p.active) tvl = tvl.add(computeTvlCc(p, cc));
  return formatAmount(tvl);
}
