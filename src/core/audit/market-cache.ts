/**
 * Deciding a market-data mismatch when the data may come from a cache (docs/protocol/public-api.md "Limits",
 * api-decisions §8; docs/findings.md "Soundness"). An error is an accusation: it is emitted only
 * when no honest timeline explains the data. Rule, per check:
 *   1. the data matches the current proven reserves → pass (decided by the caller before this);
 *   2. it matches the known joint state at some instant of its state window → pass, with an info
 *      finding MARKET_DATA_FROM_CACHE;
 *   3. else, the state of every pool involved is KNOWN at every instant of the window (each
 *      instant lies between a proven contract's creation and the last proof that showed it
 *      current: `isWindowCovered`; for a window that is one published instant — the order book's
 *      `timestamp`, /stats `pool_tvl.updated_at` — `isInstantKnown`, which allows for the
 *      millisecond rounding of ledger and snapshot times) → the data matches no state it can come
 *      from: the mismatch stands (error);
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
  computeComputedAtWindow,
  computeInstantCandidates,
  computeLatestChangeMs,
  computeStateWindow,
  isInstantKnown,
  isWindowCovered,
  type KnownReserveState,
  type ReserveTimeline,
  type ResponseTiming,
  type TimeWindow,
} from './market-time.js';
import type { MarketTiming } from './snapshot.js';

/**
 * Published cache durations used when a response has no Cache-Control (docs/protocol/public-api.md "Limits").
 */
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
  /**
   * per proof snapshot of the audit (`updated_at`, ms): the proven state of each pool it showed —
   * the exact state at that snapshot, for data that names the snapshot (`computeSnapshotStates`)
   */
  readonly snapshots?: ReadonlyMap<number, ReadonlyMap<string, KnownReserveState>>;
}

/**
 * The window of pool-state instants behind an aggregator response (pairs, tickers, an order book),
 * cached over the pool snapshot: computed within its cache window (or at `dataTimestampMs`, an
 * order book's own timestamp, when it lies inside), from pool snapshots up to the pools' max-age
 * older. Null without a cache context or the response's timing: compare strictly.
 */
export function computeAggregatorStateWindow(
  cache: MarketCacheContext | null,
  timing: ResponseTiming | null | undefined,
  dataTimestampMs: number | null = null,
): TimeWindow | null {
  if (cache === null || timing === null || timing === undefined) return null;
  return computeStateWindow(
    computeComputedAtWindow(timing, PUBLISHED_MAX_AGE_SECONDS.aggregator, dataTimestampMs),
    capMaxAge(cache.timing.poolsMaxAgeSeconds, PUBLISHED_MAX_AGE_SECONDS.pools) * 1000,
  );
}

/** The proven states each proof snapshot showed, by `updated_at` (from the timeline's contracts). */
export function computeSnapshotStates(
  timeline: ReserveTimeline,
  sets: readonly {
    readonly updatedAtMs: number;
    readonly entries: readonly { readonly poolId: string; readonly contractId: string }[];
  }[],
): Map<number, Map<string, KnownReserveState>> {
  const byContract = new Map<string, { poolId: string; state: KnownReserveState }>();
  for (const [poolId, list] of timeline)
    for (const st of list) byContract.set(st.contractId, { poolId, state: st });
  const out = new Map<number, Map<string, KnownReserveState>>();
  for (const set of sets) {
    const m = out.get(set.updatedAtMs) ?? new Map<string, KnownReserveState>();
    for (const e of set.entries) {
      const k = byContract.get(e.contractId);
      if (k !== undefined && k.poolId === e.poolId) m.set(e.poolId, k.state);
    }
    out.set(set.updatedAtMs, m);
  }
  return out;
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
  /**
   * the findings against the joint state at an instant, read from `timeline` (the known states, or
   * the states one proof set showed at its snapshot); null when that state is unknown
   */
  readonly evalAt: (atMs: number, timeline: ReserveTimeline) => readonly Finding[] | null;
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
  // a window that is one published instant (a response's own timestamp) has its own rule
  const instant = w.source === 'timestamp' && w.loMs === w.hiMs;
  // the instant is a proof snapshot of this audit that showed every pool involved: the data must
  // be that snapshot's state (an honest exchange computes it from the very snapshot it names)
  const shown = instant ? ctx.snapshots?.get(w.loMs) : undefined;
  if (shown !== undefined && k.pools.every((p) => shown.has(p))) {
    const view: ReserveTimeline = new Map(
      k.pools.map((p) => [p, [shown.get(p) as KnownReserveState]] as const),
    );
    const r = k.evalAt(w.loMs, view);
    if (r !== null) {
      c.record(
        k.area,
        k.name,
        k.pool,
        r.some(isError)
          ? r
          : [
              ...r,
              makeFinding(
                'MARKET_DATA_FROM_CACHE',
                k.pool,
                `${k.what} matches the verified reserves of the pool snapshot it names (${formatInstantMs(w.loMs)}), not the newest ones${latest === null ? '' : ` (the newest contract is from ${formatInstantMs(latest)})`}`,
                {
                  ...windowEvidence,
                  matchedStateAt: formatInstantMs(w.loMs),
                  currentMismatch: k.findings.map((f) => f.message),
                },
              ),
            ],
      );
      return;
    }
  }
  const candidates = instant
    ? computeInstantCandidates(w.loMs)
    : computeCandidateInstants(ctx.timeline, k.pools, w);
  let lastEval: readonly Finding[] | null = null;
  for (const t of candidates) {
    const r = k.evalAt(t, ctx.timeline);
    if (r === null) continue;
    lastEval = r;
    if (r.some(isError)) continue;
    c.record(k.area, k.name, k.pool, [
      ...r,
      makeFinding(
        'MARKET_DATA_FROM_CACHE',
        k.pool,
        `${k.what} matches the verified reserves current at ${formatInstantMs(t)}, inside its cache window${latest === null ? '' : ` (the newest contract is from ${formatInstantMs(latest)})`}`,
        {
          ...windowEvidence,
          matchedStateAt: formatInstantMs(t),
          currentMismatch: k.findings.map((f) => f.message),
        },
      ),
    ]);
    return;
  }
  if (instant ? isInstantKnown(ctx.timeline, k.pools, w.loMs) : isWindowCovered(ctx.timeline, k.pools, w)) {
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
