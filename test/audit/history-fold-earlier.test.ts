/**
 * computeFoldWithEarlierPoint (src/core/audit/history-fold-earlier.ts) against the fold of the whole
 * series: for random series (contract IDs served again, stale ones, ledger-time ties and regressions,
 * unproven points, points without a proof, a rare template change), any point but the last is taken
 * out, the fold of the rest and the facts a mirror would know are computed from the rest, and the
 * point is added back: the answer is null or exactly computeHistoryFold of the whole series. It must
 * answer most of the time (it is the fast path of a snapshot recorded out of order).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeFoldWithEarlierPoint,
  computeHistoryFold,
  type EarlierPointFacts,
  type HistoryPoint,
} from '../../src/core/audit/index.js';

const TEMPLATE = 'pkg:amm:Amm.Pool:PoolReserve';

/** a point of a series; `k` picks one of a few contract IDs so that IDs come back */
const arbPoint = fc.record({
  dt: fc.integer({ min: 0, max: 3 }),
  k: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 8 }),
  ledger: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 10 }),
  proven: fc.boolean(),
  reserve: fc.integer({ min: 1, max: 9 }),
  otherTemplate: fc.integer({ min: 0, max: 30 }),
});

interface Raw {
  readonly dt: number;
  readonly k: number | null;
  readonly ledger: number | null;
  readonly proven: boolean;
  readonly reserve: number;
  readonly otherTemplate: number;
}

/**
 * Time-ordered points (observation times may repeat: ties). As in the mirror, what comes from the
 * contract row — proven, reserves, LP supply, template — is the same at every point of a contract
 * ID (the first point of each ID decides it here); the ledger time is the observation's.
 */
function toSeries(raw: readonly Raw[]): HistoryPoint[] {
  let t = 1_000;
  const byId = new Map<string, Raw>();
  return raw.map((r) => {
    t += r.dt;
    const id = r.k === null ? null : `c${r.k}`;
    const c = id === null ? r : (byId.get(id) ?? r);
    if (id !== null) byId.set(id, c);
    return {
      observedAtMs: t,
      contractId: id,
      ledgerCreatedAtMicros: r.ledger === null ? null : BigInt(r.ledger),
      reserveA: `${c.reserve}.0`,
      reserveB: `${c.reserve * 2}.0`,
      totalLpSupply: '10.0',
      proven: c.proven,
      template: id === null ? null : c.otherTemplate === 0 ? 'pkg:amm:Amm.Pool:Other' : TEMPLATE,
      blobKey: null,
    };
  });
}

/** What the mirror knows of `rest` (the series without `p`), as src/io/store/sqlite/apply-history.ts reads it. */
function factsOf(rest: readonly HistoryPoint[], p: HistoryPoint): EarlierPointFacts {
  const first = new Map<string, HistoryPoint>();
  for (const q of rest) if (q.contractId !== null && !first.has(q.contractId)) first.set(q.contractId, q);
  const fold = computeHistoryFold(rest);
  const prior = p.contractId === null ? undefined : first.get(p.contractId);
  let between: HistoryPoint | null = null;
  if (prior !== undefined)
    for (const q of first.values())
      if (
        q.proven &&
        q.contractId !== p.contractId &&
        q.observedAtMs > p.observedAtMs &&
        q.observedAtMs <= prior.observedAtMs
      )
        if (between === null || q.observedAtMs >= between.observedAtMs) between = q;
  return {
    prior,
    lastProvenFirstAtMs:
      fold.lastProven === null ? null : (first.get(fold.lastProven.contractId)?.observedAtMs ?? null),
    provenFirstBetween: between,
  };
}

describe('computeFoldWithEarlierPoint', () => {
  it('is null or the fold of the whole series, and answers most of the time', () => {
    let answered = 0;
    let asked = 0;
    fc.assert(
      fc.property(fc.array(arbPoint, { minLength: 2, maxLength: 40 }), fc.nat(), (raw, pick) => {
        const series = toSeries(raw);
        const last = series[series.length - 1] as HistoryPoint;
        const i = pick % (series.length - 1);
        const p = series[i] as HistoryPoint;
        // an out-of-order point lies strictly before the pool's last observation
        if (p.observedAtMs >= last.observedAtMs) return;
        // among points observed in the same millisecond the series order is the snapshot's: keep p
        // the last of its millisecond so that "the rest + p" is the series in time order
        const next = series[i + 1];
        if (next !== undefined && next.observedAtMs === p.observedAtMs) return;
        const rest = series.filter((_, j) => j !== i);
        asked += 1;
        const got = computeFoldWithEarlierPoint(computeHistoryFold(rest), p, factsOf(rest, p));
        if (got === null) return;
        answered += 1;
        expect(got).toEqual(computeHistoryFold(series));
      }),
      { numRuns: 20_000 },
    );
    expect(asked).toBeGreaterThan(5_000);
    expect(answered).toBeGreaterThan(0.8 * asked);
  });

  it('hands the last proven place to a first point between an earlier point and its later one', () => {
    const pt = (t: number, id: string, proven = true, r = 1): HistoryPoint => ({
      observedAtMs: t,
      contractId: id,
      ledgerCreatedAtMicros: BigInt(t),
      reserveA: `${r}.0`,
      reserveB: `${r}.0`,
      totalLpSupply: '1.0',
      proven,
      template: TEMPLATE,
      blobKey: null,
    });
    // X first seen at 30 (the last proven first point), Y at 20; X recorded late at 10
    const rest = [pt(5, 'W'), pt(20, 'Y', true, 2), pt(30, 'X', true, 3), pt(40, 'X', true, 3)];
    const p = pt(10, 'X', true, 3);
    const facts = factsOf(rest, p);
    expect(facts.provenFirstBetween?.contractId).toBe('Y');
    const got = computeFoldWithEarlierPoint(computeHistoryFold(rest), p, facts);
    expect(got?.lastProven?.contractId).toBe('Y');
    expect(got).toEqual(computeHistoryFold([rest[0] as HistoryPoint, p, ...rest.slice(1)]));
    // not knowing what lies between, it declines
    expect(
      computeFoldWithEarlierPoint(computeHistoryFold(rest), p, { ...facts, provenFirstBetween: undefined }),
    ).toBe(null);
  });
});
