/**
 * GET /stats (docs/protocol/public-api.md "Statistics", api-decisions §5) and the average execution time that
 * POST /connect/quote reports as `estimated_time_seconds` (docs/protocol/api-decisions.md §4: /stats
 * swap_performance.avg_speed; "12.00" without history — the default lives in the quote core).
 * Both come from one 60-second window of the last 90 days of swap events, read from the swap-event
 * index (O(log n) per window: the cost does not grow with the history). `pool_tvl` is the
 * exception (docs/decisions/server.md "Caching"): it is computed from the shared 5-second pool
 * snapshot — the one /pools/proof serves — and names it (`pool_tvl.updated_at` = the snapshot's
 * `updated_at`), so a verifier knows exactly which proven state the total describes; the reply is
 * therefore cached for the pool snapshot's 5 s.
 */
import {
  computeAverageExecutionSecondsFromLog,
  computeStatsFromLog,
  computeTotalTvlCc,
  DAY_MS,
} from '../../core/amm/index.js';
import type { StatsResponse, SwapStats } from '../../core/wire/stats.js';
import { formatApiTimestamp } from '../../core/wire/timestamp.js';
import type { RouteDeps } from '../deps.js';
import type { Reply } from '../http.js';
import { CACHE_SECONDS, cachedJson, poolSnapshot } from './common.js';

interface StatsBundle {
  readonly stats: SwapStats;
  readonly avgExecutionSeconds: string | null;
}

function statsBundle(deps: RouteDeps): StatsBundle {
  return deps.memo.get('stats', CACHE_SECONDS.stats * 1000, () => {
    const now = deps.clock.nowMs();
    const log = deps.exchange.swapEventLog();
    const avgExecutionSeconds = computeAverageExecutionSecondsFromLog(log, now - 30 * DAY_MS, now);
    const stats = computeStatsFromLog({
      log,
      pools: deps.exchange.pools(),
      cc: deps.exchange.cc(),
      nowMs: now,
      ...(avgExecutionSeconds === null ? {} : { estimatedTimeSeconds: avgExecutionSeconds }),
    });
    return { stats, avgExecutionSeconds };
  }) as StatsBundle;
}

export function stats(deps: RouteDeps): Reply {
  return cachedJson(deps, 'stats', CACHE_SECONDS.statsReply, (): StatsResponse => {
    const snap = poolSnapshot(deps);
    return {
      stats: {
        ...statsBundle(deps).stats,
        pool_tvl: {
          tvl_cc: computeTotalTvlCc(snap.pools, deps.exchange.cc()),
          updated_at: formatApiTimestamp(snap.atMs),
        },
      },
    };
  });
}

/** Mean execution seconds of the last 30 days of swaps, 2 decimals; null without history. */
export function averageExecutionSeconds(deps: RouteDeps): string | null {
  return statsBundle(deps).avgExecutionSeconds;
}
