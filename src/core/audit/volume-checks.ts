/**
 * Volume, statistics and token checks (the issue "Market data"; docs/protocol/public-api.md "Volume window",
 * "GET /volume" rule 1, "Statistics", "Token"): fees_cc = lp_fees_cc + protocol_fees_cc in every
 * window; the two consecutive halves of a closed window add up to it (swap count, volume, fees);
 * /stats cc_volume_24h and count_24h equal the /volume default window; /stats pool_tvl.tvl_cc
 * equals the sum of the pools' TVLs; every pool token is listed in /tokens/info.
 * Sums of published 10-decimal strings are exact: compared without tolerance.
 */
import { Dec } from '../money/decimal.js';
import { isSameAmount, parseDecimal } from './decimal-strings.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import { type MarketCacheContext, PUBLISHED_MAX_AGE_SECONDS, recordCachedCheck } from './market-cache.js';
import { computeComputedAtWindow, computeStateWindow, findStateAt } from './market-time.js';
import type {
  StateEntry,
  StatsSummary,
  TokenInfoEntry,
  TokenKey,
  VolumeSplit,
  VolumeWindow,
} from './snapshot.js';
import { computePoolTvlCc, type PoolReserves } from './state-checks.js';

const FIELDS = ['swapCount', 'volumeCc', 'feesCc', 'lpFeesCc', 'protocolFeesCc'] as const;

function feesAddUp(w: VolumeWindow, which: string): Finding[] {
  const fees = parseDecimal(w.feesCc);
  const lp = parseDecimal(w.lpFeesCc);
  const pr = parseDecimal(w.protocolFeesCc);
  if (fees !== null && lp !== null && pr !== null && fees.eq(lp.add(pr))) return [];
  return [
    makeFinding(
      'VOLUME_FEES_DONT_ADD_UP',
      null,
      `${which} window: fees_cc ${w.feesCc} ≠ lp_fees_cc ${w.lpFeesCc} + protocol_fees_cc ${w.protocolFeesCc}`,
      {
        window: [w.startTime, w.endTime],
        expected: lp !== null && pr !== null ? lp.add(pr).toFixed() : null,
        got: w.feesCc,
      },
    ),
  ];
}

export function checkVolume(c: AuditCollector, v: VolumeSplit): void {
  c.record('volume', 'volume.fees-add-up', null, [
    ...feesAddUp(v.default, 'default'),
    ...feesAddUp(v.whole, 'whole'),
    ...v.parts.flatMap((p, i) => feesAddUp(p, `part ${i + 1}`)),
  ]);
  const f: Finding[] = [];
  for (const k of FIELDS) {
    let sum = new Dec(0);
    let ok = true;
    for (const p of v.parts) {
      const d = parseDecimal(p[k]);
      if (d === null) ok = false;
      else sum = sum.add(d);
    }
    const whole = parseDecimal(v.whole[k]);
    if (!ok || whole === null || !whole.eq(sum))
      f.push(
        makeFinding(
          'VOLUME_WINDOWS_DONT_ADD_UP',
          null,
          `${k}: consecutive windows sum to ${sum.toFixed()}, the whole window says ${v.whole[k]}`,
          {
            field: k,
            expected: sum.toFixed(),
            got: v.whole[k],
            parts: v.parts.map((p) => [p.startTime, p.endTime]),
          },
        ),
      );
  }
  c.record('volume', 'volume.windows-add-up', null, f);
}

export function checkStats(
  c: AuditCollector,
  s: StatsSummary,
  v: VolumeSplit | null,
  reserves: ReadonlyMap<string, PoolReserves>,
  state: readonly StateEntry[],
  cache: MarketCacheContext | null = null,
  cc: TokenKey | null = null,
): void {
  const statsTiming = cache?.timing.stats ?? null;
  // the pool snapshot the total names (`pool_tvl.updated_at`), when it lies inside the response's
  // HTTP window, is the instant of its state; else /stats may have been computed from live pools
  // at computed-at, through a memo up to the published 60 s old (a header cannot narrow that: the
  // memo is the exchange's inside)
  const statsWindow =
    statsTiming === null
      ? null
      : computeStateWindow(
          computeComputedAtWindow(statsTiming, PUBLISHED_MAX_AGE_SECONDS.stats, s.tvlUpdatedAtMs ?? null),
          PUBLISHED_MAX_AGE_SECONDS.stats * 1000,
        );
  if (v !== null) {
    const f: Finding[] = [];
    if (!isSameAmount(s.ccVolume24h, v.default.volumeCc))
      f.push(
        makeFinding(
          'STATS_VOLUME_MISMATCH',
          null,
          `/stats cc_volume_24h ${s.ccVolume24h} ≠ /volume ${v.default.volumeCc}`,
          { field: 'cc_volume_24h', expected: v.default.volumeCc, got: s.ccVolume24h },
        ),
      );
    if (!isSameAmount(String(s.count24h), v.default.swapCount))
      f.push(
        makeFinding(
          'STATS_VOLUME_MISMATCH',
          null,
          `/stats count_24h ${s.count24h} ≠ /volume swap_count ${v.default.swapCount}`,
          { field: 'count_24h', expected: v.default.swapCount, got: s.count24h },
        ),
      );
    recordStatsVolume(c, s, v, f, cache);
  }
  let sum = new Dec(0);
  let label: 'proven' | 'asserted' = 'proven';
  for (const st of state) {
    const d = parseDecimal(st.tvlCc);
    if (d !== null) sum = sum.add(d);
    if (reserves.get(st.poolId)?.label !== 'proven') label = 'asserted';
  }
  const tvlFinding = (expected: string): Finding[] =>
    isSameAmount(s.tvlCc, expected)
      ? []
      : [
          makeFinding(
            'STATS_TVL_MISMATCH',
            null,
            `/stats pool_tvl.tvl_cc ${s.tvlCc} ≠ sum of pool TVLs ${expected}`,
            { expected, got: s.tvlCc },
            { label },
          ),
        ];
  recordCachedCheck(c, cache, {
    area: 'volume',
    name: 'stats.tvl',
    pool: null,
    findings: tvlFinding(sum.toFixed()),
    window: statsWindow,
    pools: state.map((st) => st.poolId),
    what: '/stats pool_tvl.tvl_cc',
    // the pipeline fetches /stats again (with a /pools/proof) only when it names its pool snapshot
    evidence: { endpoint: '/stats', snapshotNamed: s.tvlUpdatedAtMs !== undefined },
    evalAt: (at, timeline) => {
      if (cc === null) return null;
      let total = new Dec(0);
      for (const st of state) {
        const k = findStateAt(timeline, st.poolId, at);
        if (k === null) return null;
        const tvl = computePoolTvlCc(st.tokenA, st.tokenB, k.reserveA, k.reserveB, cc) ?? st.tvlCc;
        const d = parseDecimal(tvl);
        if (d === null) return null;
        total = total.add(d);
      }
      return tvlFinding(total.toFixed());
    },
  });
}

/**
 * /stats 24 h figures vs /volume (stats-bounds.ts): equal to the default window → pass; else the
 * figures must lie between the inner and the outer window — every trailing 24 h window /stats may
 * have been computed over contains the inner one and lies inside the outer one, and counts and
 * volumes only grow with the window. Outside → STATS_VOLUME_MISMATCH; inside → pass (the two were
 * computed at different instants). Without the bounds (older snapshots) a difference is
 * MARKET_DATA_STALE_UNVERIFIED when timing is known, else an error.
 */
function recordStatsVolume(
  c: AuditCollector,
  s: StatsSummary,
  v: VolumeSplit,
  f: readonly Finding[],
  cache: MarketCacheContext | null,
): void {
  if (f.length === 0) {
    c.record('volume', 'stats.volume', null, f);
    return;
  }
  const outer = v.statsOuter;
  const inner = v.statsInner;
  if (outer === undefined || inner === undefined) {
    if (cache === null) c.record('volume', 'stats.volume', null, f);
    else
      c.skipWithFinding(
        'volume',
        'stats.volume',
        null,
        makeFinding(
          'MARKET_DATA_STALE_UNVERIFIED',
          null,
          '/stats 24 h figures differ from /volume, and the windows bounding them were not fetched: not checked',
          {
            currentMismatch: f.map((x) => x.message),
          },
        ),
      );
    return;
  }
  const out: Finding[] = [];
  const within = (field: string, got: string, lo: string, hi: string): void => {
    const g = parseDecimal(got);
    const l = parseDecimal(lo);
    const h = parseDecimal(hi);
    if (g !== null && l !== null && h !== null && g.gte(l) && g.lte(h)) return;
    out.push(
      makeFinding(
        'STATS_VOLUME_MISMATCH',
        null,
        `/stats ${field} ${got} is outside [${lo}, ${hi}], the /volume windows every trailing 24 h window it may cover lies between`,
        {
          field,
          expected: [lo, hi],
          got,
          inner: [inner.startTime, inner.endTime],
          outer: [outer.startTime, outer.endTime],
        },
      ),
    );
  };
  within('count_24h', String(s.count24h), inner.swapCount, outer.swapCount);
  within('cc_volume_24h', s.ccVolume24h, inner.volumeCc, outer.volumeCc);
  c.record('volume', 'stats.volume', null, out);
}

export function checkTokens(
  c: AuditCollector,
  tokens: readonly TokenInfoEntry[],
  state: readonly StateEntry[],
): void {
  const byKey = new Map(tokens.map((t) => [`${t.admin}\u0000${t.id}`, t]));
  const f: Finding[] = [];
  const w: Finding[] = [];
  const done = new Set<string>();
  for (const s of state)
    for (const t of [s.tokenA, s.tokenB]) {
      const key = `${t.admin}\u0000${t.id}`;
      if (done.has(key)) continue;
      done.add(key);
      const info = byKey.get(key);
      if (info === undefined)
        f.push(
          makeFinding(
            'TOKEN_MISSING',
            s.poolId,
            `token ${t.id} (${t.admin}) of pool ${s.poolId} is not in /tokens/info`,
            { expected: t, got: null },
          ),
        );
      else if (info.symbol.toUpperCase() !== t.symbol.toUpperCase())
        w.push(
          makeFinding(
            'TOKEN_SYMBOL_MISMATCH',
            s.poolId,
            `token ${t.id} is ${t.symbol} in /pools/state, ${info.symbol} in /tokens/info`,
            { expected: info.symbol, got: t.symbol },
          ),
        );
    }
  c.record('tokens', 'tokens.listed', null, [...f, ...w]);
}
