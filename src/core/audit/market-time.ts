/**
 * When was cached market data computed, and which reserve states could it describe
 * (docs/protocol/public-api.md "Limits" cache durations; api-decisions §8 `Cache-Control: public, max-age=N`,
 * RFC 9111 §5.1 `Age`; docs/decisions/audit.md "Cached market data").
 *
 * Market data derived from reserves (tickers, order books, /stats pool_tvl) is legitimately served
 * from a cache, so it may describe a reserve state older than the newest proven contract. Each such
 * response has a window of instants its underlying pool state may come from ("state window"):
 *   - computed-at: the order book's own `timestamp` when it lies inside the HTTP window; else
 *     [start − Age − 1 s, end − Age] with `Age`; else [start − max-age, end] (max-age from
 *     `Cache-Control`, or the published duration when the header is absent);
 *   - minus how old the data the response was built from may be (`innerMs`: the 5 s pool snapshot
 *     for aggregator data, the /stats memo for /stats), minus a clock-skew slack.
 * Known reserve states are piecewise constant in time (a state is current from its contract's
 * ledger creation to the creation of the next known contract), so the joint states in a window are
 * the ones at its start and at every known creation inside it (`computeCandidateInstants`).
 * That reading is only used to ACCEPT data (a match is a genuine proven state of the pool). To
 * REJECT data, the whole window must be covered by what the auditor has seen: each pool's state is
 * known only on [contract creation, last proof showing it] (`isWindowCovered`); between two such
 * intervals contracts the auditor never saw may have been current.
 * All times are ms; ledger times come from the exchange's clock, fetch times from the auditor's.
 */

/** Allowed skew between the auditor's clock and the exchange's ledger clock. */
export const CLOCK_SLACK_MS = 2_000;

/**
 * How far before a snapshot's start a state window can reach: a cached response was computed at
 * most max-age (≤ 60 s published, + 1 s of Age rounding) + the clock slack before its request,
 * from data at most another 60 s old (the /stats memo; the pool snapshot is 5 s) — 123 s; the
 * horizon keeps a wide margin. Known reserve states created before it only matter as the state
 * current at its start, so the mirror reads the recent ones and the newest two before it.
 */
export const MARKET_STATE_HORIZON_MS = 3 * 60_000;

/** How one response was fetched (auditor clock) and what its cache headers said. */
export interface ResponseTiming {
  /** ms when the request was sent */
  readonly startedAtMs: number;
  /** ms when the response was complete */
  readonly receivedAtMs: number;
  /** Cache-Control max-age (null: absent) */
  readonly maxAgeSeconds: number | null;
  /** Age (null: absent) */
  readonly ageSeconds: number | null;
}

export interface TimeWindow {
  readonly loMs: number;
  readonly hiMs: number;
  /** what bounded the window */
  readonly source: 'timestamp' | 'age' | 'max-age' | 'published-max-age';
}

/** One reserve state of a pool known to the auditor (a proven contract). */
export interface KnownReserveState {
  readonly contractId: string;
  /** ledger creation time of the contract, ms */
  readonly createdAtMs: number;
  /**
   * the latest instant (exchange clock) a proof showed this contract as the pool's current one:
   * it was current throughout [createdAtMs, seenUntilMs] (a consumed contract never comes back)
   */
  readonly seenUntilMs: number;
  readonly reserveA: string;
  readonly reserveB: string;
}

/** Per pool, its known proven states, oldest first; the last one is the current proven contract. */
export type ReserveTimeline = ReadonlyMap<string, readonly KnownReserveState[]>;

/**
 * The window of instants at which a cached response may have been computed. max-age is capped by
 * the published duration (docs/protocol/public-api.md "Limits").
 * `dataTimestampMs` (an order book's `timestamp`) is used only when it lies inside the HTTP window,
 * so a forged timestamp cannot widen what is accepted.
 */
export function computeComputedAtWindow(
  t: ResponseTiming,
  publishedMaxAgeSeconds: number,
  dataTimestampMs: number | null = null,
): TimeWindow {
  // a header can only narrow the published duration: a huge max-age must not widen what is accepted
  const maxAge = Math.min(t.maxAgeSeconds ?? publishedMaxAgeSeconds, publishedMaxAgeSeconds);
  const http: TimeWindow = {
    loMs: t.startedAtMs - maxAge * 1000 - CLOCK_SLACK_MS,
    hiMs: t.receivedAtMs + CLOCK_SLACK_MS,
    source: t.maxAgeSeconds === null ? 'published-max-age' : 'max-age',
  };
  if (dataTimestampMs !== null && dataTimestampMs >= http.loMs && dataTimestampMs <= http.hiMs)
    return { loMs: dataTimestampMs, hiMs: dataTimestampMs, source: 'timestamp' };
  if (t.ageSeconds !== null && t.ageSeconds <= maxAge)
    return {
      loMs: t.startedAtMs - (t.ageSeconds + 1) * 1000 - CLOCK_SLACK_MS,
      hiMs: t.receivedAtMs - t.ageSeconds * 1000 + CLOCK_SLACK_MS,
      source: 'age',
    };
  return http;
}

/**
 * The window of pool-state instants behind a response computed in `computed`, built from data
 * up to `innerMs` old (0 for an order book timestamp, which is the pool snapshot's own time).
 */
export function computeStateWindow(computed: TimeWindow, innerMs: number): TimeWindow {
  const inner = computed.source === 'timestamp' ? 0 : innerMs;
  return { loMs: computed.loMs - inner, hiMs: computed.hiMs, source: computed.source };
}

/** The newest creation time among the current (last) known states of `pools`; null if none known. */
export function computeLatestChangeMs(timeline: ReserveTimeline, pools: Iterable<string>): number | null {
  let out: number | null = null;
  for (const p of pools) {
    const list = timeline.get(p);
    const last = list?.[list.length - 1];
    if (last !== undefined && (out === null || last.createdAtMs > out)) out = last.createdAtMs;
  }
  return out;
}

/**
 * The instants at which the joint known state of `pools` can differ inside `w`: its start and every
 * known creation inside it, ascending.
 */
export function computeCandidateInstants(
  timeline: ReserveTimeline,
  pools: Iterable<string>,
  w: TimeWindow,
): number[] {
  const set = new Set<number>([w.loMs]);
  for (const p of pools)
    for (const s of timeline.get(p) ?? [])
      if (s.createdAtMs > w.loMs && s.createdAtMs <= w.hiMs) set.add(s.createdAtMs);
  return [...set].sort((a, b) => a - b);
}

/** The known state of `pool` current at `atMs` (the newest created at or before it), or null. */
export function findStateAt(timeline: ReserveTimeline, pool: string, atMs: number): KnownReserveState | null {
  const list = timeline.get(pool) ?? [];
  let out: KnownReserveState | null = null;
  for (const s of list) if (s.createdAtMs <= atMs) out = s;
  return out;
}

/**
 * Whether the state of every pool of `pools` is known at every instant of `w`: `w` lies inside
 * the union of the pools' intervals [createdAtMs, seenUntilMs] (docs/findings.md "Soundness").
 */
export function isWindowCovered(
  timeline: ReserveTimeline,
  pools: Iterable<string>,
  w: { readonly loMs: number; readonly hiMs: number },
): boolean {
  for (const p of pools) {
    const list = [...(timeline.get(p) ?? [])].sort((a, b) => a.createdAtMs - b.createdAtMs);
    let pos = w.loMs;
    let covered = false;
    for (const s of list) {
      if (s.createdAtMs > pos) break;
      if (s.seenUntilMs >= pos) pos = s.seenUntilMs + 1;
      if (pos > w.hiMs) {
        covered = true;
        break;
      }
    }
    if (!covered) return false;
  }
  return true;
}

/**
 * The window of a response fetched before the latest proof: its pool state is no newer than that
 * proof's snapshot (the market data and the proofs come from one pool snapshot sequence,
 * api-decisions §2, docs/protocol/public-api.md "Limits"), so `hiMs` is capped at `latestSeenMs`; a window
 * wholly after it (auditor clock ahead of the exchange's) shrinks to that instant.
 */
export function clipToLatestSeen(w: TimeWindow, latestSeenMs: number | null): TimeWindow {
  if (latestSeenMs === null || w.hiMs <= latestSeenMs) return w;
  return { loMs: Math.min(w.loMs, latestSeenMs), hiMs: latestSeenMs, source: w.source };
}

/**
 * The candidate instants and the coverage of a window that is one published instant S (a
 * response's own timestamp: the pool snapshot it was computed from). Ledger times and snapshot
 * times are whole milliseconds, so a contract created in the millisecond S may be newer or older
 * than the snapshot: the state at S is the one at S − 1 ms or the one at S (both candidates), and
 * it is KNOWN only when every pool has a known state created before S and shown current at S or
 * later, and no known contract created in the millisecond S (which could be on either side).
 */
export function computeInstantCandidates(atMs: number): number[] {
  return [atMs - 1, atMs];
}

export function isInstantKnown(timeline: ReserveTimeline, pools: Iterable<string>, atMs: number): boolean {
  for (const p of pools) {
    const list = timeline.get(p) ?? [];
    if (list.some((s) => s.createdAtMs === atMs)) return false;
    if (!list.some((s) => s.createdAtMs < atMs && s.seenUntilMs >= atMs)) return false;
  }
  return true;
}
