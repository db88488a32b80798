/**
 * Bounds of the /stats 24 h figures (docs/protocol/public-api.md "Statistics", "GET /volume";
 * docs/findings.md "Soundness"). /stats count_24h and cc_volume_24h are the swaps of [T − 24 h, T) for the
 * instant T it was computed at, which the auditor only knows to lie in [fetch start − 120 s − slack,
 * fetch end + slack] (a 60 s reply cache over a 60 s memo, and the clock slack). Swap counts and
 * volumes only grow with the window, so every such window contains the inner window
 * [end + slack − 24 h, start − 120 s − slack) and lies inside the outer window
 * [start − 120 s − slack − 24 h, now) fetched after /stats: an honest /stats lies between the two.
 */
import { CLOCK_SLACK_MS } from './market-time.js';

const DAY_MS = 86_400_000;
/** the /stats reply cache and the memo behind it (docs/protocol/public-api.md "Limits": 60 s each) */
const STATS_MAX_STALENESS_MS = 120_000;

export interface StatsVolumeBounds {
  readonly outerStartMs: number;
  readonly innerStartMs: number;
  readonly innerEndMs: number;
}

/** The windows to fetch for a /stats response fetched in [startedAtMs, receivedAtMs]. */
export function computeStatsVolumeBounds(startedAtMs: number, receivedAtMs: number): StatsVolumeBounds {
  const earliest = startedAtMs - STATS_MAX_STALENESS_MS - CLOCK_SLACK_MS;
  const latest = receivedAtMs + CLOCK_SLACK_MS;
  return { outerStartMs: earliest - DAY_MS, innerStartMs: latest - DAY_MS, innerEndMs: earliest };
}
