/**
 * Volume, statistics and token checks (the issue "Market data"; public-api.md "Volume window",
 * "GET /volume" rule 1, "Statistics", "Token"): fees_cc = lp_fees_cc + protocol_fees_cc in every
 * window; the two consecutive halves of a closed window add up to it (swap count, volume, fees);
 * /stats cc_volume_24h and count_24h equal the /volume default window; /stats pool_tvl.tvl_cc
 * equals the sum of the pools' TVLs; every pool token is listed in /tokens/info.
 * Sums of published 10-decimal strings are exact: compared without tolerance.
 */
import { Dec } from '../money/decimal.js';
import { formatInstantMs } from '../wire/timestamp.js';
import { isSameAmount, parseDecimal } from './decimal.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import {
  capMaxAge,
  type MarketCacheContext,
  PUBLISHED_MAX_AGE_SECONDS,
  recordCachedCheck,
} from './market-cache.js';
import {
  computeChangesWithin,
  computeComputedAtWindow,
  computeStateWindow,
  findStateAt,
  type TimeWindow,
} from './market-time.js';
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
  // /stats is computed from live pools at computed-at, through a memo as old as its own max-age
  const statsWindow =
    statsTiming === null
      ? null
      : computeStateWindow(
          computeComputedAtWindow(statsTiming, PUBLISHED_MAX_AGE_SECONDS.stats),
          capMaxAge(statsTiming.maxAgeSeconds, PUBLISHED_MAX_AGE_SECONDS.stats) * 1000,
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
    recordStatsVolume(c, f, cache, statsWindow, reserves);
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
    evalAt: (at) => {
      if (cache === null || cc === null) return null;
      let total = new Dec(0);
      for (const st of state) {
        const k = findStateAt(cache.timeline, st.poolId, at);
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
 * /stats 24 h figures vs the /volume default window: both are trailing 24 h windows, but cached
 * separately (60 s vs 30 s) and so computed at different instants. A difference is only decisive
 * when no swap the auditor knows of (a reserve contract created) falls between the earliest and the
 * latest instant either could have been computed at; otherwise it is MARKET_DATA_STALE_UNVERIFIED.
 */
function recordStatsVolume(
  c: AuditCollector,
  f: readonly Finding[],
  cache: MarketCacheContext | null,
  statsWindow: TimeWindow | null,
  reserves: ReadonlyMap<string, PoolReserves>,
): void {
  const vt = cache?.timing.volumeDefault ?? null;
  if (f.length === 0 || cache === null || statsWindow === null || vt === null) {
    c.record('volume', 'stats.volume', null, f);
    return;
  }
  const vw = computeComputedAtWindow(vt, PUBLISHED_MAX_AGE_SECONDS.volumeOpen);
  const span = { loMs: Math.min(statsWindow.loMs, vw.loMs), hiMs: Math.max(statsWindow.hiMs, vw.hiMs) };
  const swaps = computeChangesWithin(cache.timeline, reserves.keys(), span);
  if (swaps.length === 0) {
    c.record('volume', 'stats.volume', null, f);
    return;
  }
  c.skipWithFinding(
    'volume',
    'stats.volume',
    null,
    makeFinding(
      'MARKET_DATA_STALE_UNVERIFIED',
      null,
      `/stats 24 h figures differ from /volume, and ${swaps.length} swap(s) fall between the instants they were computed at (${formatInstantMs(span.loMs)} … ${formatInstantMs(span.hiMs)}): not checked`,
      {
        window: [formatInstantMs(span.loMs), formatInstantMs(span.hiMs)],
        swaps: swaps.slice(0, 20).map((x) => ({ ...x, createdAtMs: formatInstantMs(x.createdAtMs) })),
        currentMismatch: f.map((x) => x.message),
      },
    ),
  );
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
