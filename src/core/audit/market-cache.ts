/**
 * Deciding a market-data mismatch when the data may come from a cache (public-api.md "Limits",
 * api-decisions §8; docs/findings.md "Soundness"). An error is an accusation: it is emitted only
 * when no honest timeline explains the data. Rule, per check:
 *   1. the data matches the current proven reserves → pass (decided by the caller before this);
 *   2. it matches the known joint state at some instant of its state window → pass, with an info
 *      finding MARKET_DATA_FROM_CACHE;
 *   3. else, the state of every pool involved is KNOWN at every instant of the window (each
 *      instant lies between a proven contract's creation and the last proof that showed it
 *      current: `isWindowCovered`) → the data matches no state it can come from: the mismatch
 *      stands (error);
 *   4. else → MARKET_DATA_STALE_UNVERIFIED (warning, could-not-check), recorded as a SKIPPED
 *      check: the data may come from a state the auditor never saw. The audit pipeline re-fetches
 *      such responses (src/run/audit.ts) before settling for this.
 * The window's end is capped at the newest proof snapshot (`clipToLatestSeen`).
 */

import { formatInstantMs } from '../wire/timestamp.js';
import { type AuditArea, type AuditCollector, type Finding, makeFinding } from './finding.js';
import {
  clipToLatestSeen,
  computeCandidateInstants,
  computeLatestChangeMs,
  isWindowCovered,
  type ReserveTimeline,
  type TimeWindow,
} from './market-time.js';
import type { MarketTiming } from './snapshot.js';

/** Published cache durations used when a response has no Cache-Control (public-api.md "Limits"). */
export const PUBLISHED_MAX_AGE_SECONDS = {
  pools: 5,
  aggregator: 60,
  stats: 60,
  volumeOpen: 30,
} as const;

/** A response's max-age capped by the published duration (absent → the published one). */
export function capMaxAge(headerSeconds: number | null, publishedSeconds: number): number {
  return Math.min(headerSeconds ?? publishedSeconds, publishedSeconds);
}

/** What the market checks need to reason about caching; null = compare strictly. */
export interface MarketCacheContext {
  readonly timeline: ReserveTimeline;
  readonly timing: MarketTiming;
  /** the newest proof snapshot (`updated_at`, exchange clock) fetched after the market data */
  readonly latestSeenMs?: number | null;
}

export interface CachedCheck {
  readonly area: AuditArea;
  readonly name: string;
  readonly pool: string | null;
  /** the findings against the current reserves */
  readonly findings: readonly Finding[];
  /** the state window of the response, null when unknown */
  readonly window: TimeWindow | null;
  /** the pools the data is derived from */
  readonly pools: readonly string[];
  /** the findings against the known joint state at an instant; null when that state is unknown */
  readonly evalAt: (atMs: number) => readonly Finding[] | null;
  /** e.g. "ticker BTC_CC" */
  readonly what: string;
  /** extra evidence for the could-not-check finding (e.g. the ticker id, for re-fetching) */
  readonly evidence?: Readonly<Record<string, unknown>>;
}

const isError = (f: Finding): boolean => f.severity === 'error';

/** Records `k` following the rule of the module comment. */
export function recordCachedCheck(c: AuditCollector, ctx: MarketCacheContext | null, k: CachedCheck): void {
  if (!k.findings.some(isError) || ctx === null || k.window === null) {
    c.record(k.area, k.name, k.pool, k.findings);
    return;
  }
  const w = clipToLatestSeen(k.window, ctx.latestSeenMs ?? null);
  const latest = computeLatestChangeMs(ctx.timeline, k.pools);
  const windowEvidence = {
    stateWindow: [formatInstantMs(w.loMs), formatInstantMs(w.hiMs)],
    windowSource: w.source,
    newestContractCreatedAt: latest === null ? null : formatInstantMs(latest),
    ...k.evidence,
  };
  let lastEval: readonly Finding[] | null = null;
  for (const t of computeCandidateInstants(ctx.timeline, k.pools, w)) {
    const r = k.evalAt(t);
    if (r === null) continue;
    lastEval = r;
    if (r.some(isError)) continue;
    c.record(k.area, k.name, k.pool, [
      ...r,
      makeFinding(
        'MARKET_DATA_FROM_CACHE',
        k.pool,
        `${k.what} matches the proven reserves current at ${formatInstantMs(t)}, inside its cache window${latest === null ? '' : ` (the newest contract is from ${formatInstantMs(latest)})`}`,
        {
          ...windowEvidence,
          matchedStateAt: formatInstantMs(t),
          currentMismatch: k.findings.map((f) => f.message),
        },
      ),
    ]);
    return;
  }
  if (isWindowCovered(ctx.timeline, k.pools, w)) {
    c.record(k.area, k.name, k.pool, lastEval ?? k.findings);
    return;
  }
  c.skipWithFinding(
    k.area,
    k.name,
    k.pool,
    makeFinding(
      'MARKET_DATA_STALE_UNVERIFIED',
      k.pool,
      `${k.what} matches no known reserve state, and the auditor did not see every state of the pool within its cache window (${formatInstantMs(w.loMs)} … ${formatInstantMs(w.hiMs)}): not checked`,
      { ...windowEvidence, currentMismatch: k.findings.map((f) => f.message) },
    ),
  );
}
