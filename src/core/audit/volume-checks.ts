/**
 * Volume, statistics and token checks (the issue "Market data"; public-api.md "Volume window",
 * "GET /volume" rule 1, "Statistics", "Token"): fees_cc = lp_fees_cc + protocol_fees_cc in every
 * window; the two consecutive halves of a closed window add up to it (swap count, volume, fees);
 * /stats cc_volume_24h and count_24h equal the /volume default window; /stats pool_tvl.tvl_cc
 * equals the sum of the pools' TVLs; every pool token is listed in /tokens/info.
 * Sums of published 10-decimal strings are exact: compared without tolerance.
 */
import { AuditDecimal, isSameAmount, parseDecimal } from './decimal.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { StateEntry, StatsSummary, TokenInfoEntry, VolumeSplit, VolumeWindow } from './snapshot.js';
import type { PoolReserves } from './state-checks.js';

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
    let sum = new AuditDecimal(0);
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
): void {
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
    c.record('volume', 'stats.volume', null, f);
  }
  let sum = new AuditDecimal(0);
  let label: 'proven' | 'asserted' = 'proven';
  for (const st of state) {
    const d = parseDecimal(st.tvlCc);
    if (d !== null) sum = sum.add(d);
    if (reserves.get(st.poolId)?.label !== 'proven') label = 'asserted';
  }
  const f: Finding[] = [];
  if (!isSameAmount(s.tvlCc, sum.toFixed()))
    f.push(
      makeFinding(
        'STATS_TVL_MISMATCH',
        null,
        `/stats pool_tvl.tvl_cc ${s.tvlCc} ≠ sum of pool TVLs ${sum.toFixed()}`,
        { expected: sum.toFixed(), got: s.tvlCc },
        { label },
      ),
    );
  c.record('volume', 'stats.tvl', null, f);
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
