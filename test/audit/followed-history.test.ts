/**
 * The followed ledger in the audit's history (src/core/audit/followed-history-checks.ts), pure: the
 * reserve events of a real simulated ledger (the reference template, V12 contract IDs, swaps between)
 * as `mirror follow` stores them. An honest history raises nothing; a pool drained and refilled
 * (reserves moved without LP units, its chain intact) raises the LP-share finding once — naming the
 * followed contracts and their offsets — and not again once an audit judged those offsets; a contract
 * missing from the stream is RESERVE_CHAIN_GAP; findings of pools the audit does not audit are not its.
 */
import { describe, expect, it } from 'vitest';
import {
  AuditCollector,
  checkFollowedHistory,
  type FollowedAuditEvent,
  type FollowedStream,
} from '../../src/core/audit/index.js';
import { Dec } from '../../src/core/money/decimal.js';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { readSimulatedFollowedEvents, verifyReferenceReserve } from '../helpers/followed-ledger.js';

const verify = verifyReferenceReserve;

function exchange(seed: string): { ex: SimulatedExchange; swap: (n: number) => void } {
  const clock = createManualClock(Date.UTC(2026, 10, 22, 3, 0, 0));
  const ex = createExchange({
    db: openServerDb(':memory:'),
    clock,
    rng: createSeededRng(seed),
    contractIdVersion: 'v12',
    seedMarket: loadSeedMarket(),
    extraPools: 0,
  });
  const rng = createSeededRng(`${seed}-traffic`);
  const swap = (n: number): void => {
    let done = 0;
    for (let tries = 0; done < n && tries < n * 20; tries += 1) {
      clock.advanceMs(1000);
      if (simulateRandomSwap(ex, rng)?.status === 'executed') done += 1;
    }
    expect(done).toBe(n);
  };
  return { ex, swap };
}

/** The ledger's reserve events after `after`, as the follower stores them. */
const followed = readSimulatedFollowedEvents;

/** A stream whose pools (all of them, or `pools`) an earlier audit judged through `judgedThrough`. */
const stream = (
  events: readonly FollowedAuditEvent[],
  judgedThrough: number | null,
  throughOffset = events.at(-1)?.offset ?? 0,
  pools: readonly string[] | null = null,
): FollowedStream => {
  const judged = new Map<string | null, number>();
  if (judgedThrough !== null) {
    judged.set(null, judgedThrough);
    for (const e of events)
      if (e.kind === 'created' && e.createdEventBlob !== null) {
        const pool = verify(e.contractId, e.createdEventBlob).provenFields?.poolId;
        if (pool != null && (pools === null || pools.includes(pool))) judged.set(pool, judgedThrough);
      }
  }
  return { participant: 'http://127.0.0.1:1', party: 'auditor::1220f011', throughOffset, judged, events };
};

function judge(ex: SimulatedExchange, s: FollowedStream, pools = ex.pools().map((p) => p.poolId)) {
  const c = new AuditCollector();
  const coverage = checkFollowedHistory(c, new Set(pools), { streams: [s], verify });
  return { c, coverage: coverage[0]! };
}

/** `v` × `f`, with 10 places (rounded down). */
const scaled = (v: string, f: string): string => new Dec(v).mul(f).toFixed(10, Dec.ROUND_DOWN);

describe('the followed history of an audit', () => {
  it('an honest ledger with swaps: every contract a point, no finding, every check passes', () => {
    const { ex, swap } = exchange('followed-honest');
    swap(25);
    const events = followed(ex);
    const { c, coverage } = judge(ex, stream(events, null));
    expect(c.findings).toEqual([]);
    expect(c.checks.length).toBeGreaterThan(0);
    expect(c.checks.every((k) => k.status === 'pass')).toBe(true);
    expect(c.checks.some((k) => k.name === 'history.followed.lp-share')).toBe(true);
    expect(c.checks.some((k) => k.name === 'ledger.chain')).toBe(true);
    const created = events.filter((e) => e.kind === 'created').length;
    expect(coverage).toMatchObject({
      contracts: created,
      newContracts: created,
      pools: ex.pools().length,
      throughOffset: ex.ledgerEnd(),
    });
    // after it, every audited pool (and the events of no pool) is judged through the offset read,
    // each pool with the count of its contracts judged
    const countOf = (pool: string): number =>
      events.filter(
        (e) =>
          e.kind === 'created' && verify(e.contractId, e.createdEventBlob!).provenFields?.poolId === pool,
      ).length;
    expect(coverage.judged).toEqual(
      [null, ...ex.pools().map((p) => p.poolId)]
        .sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1))
        .map((pool) =>
          pool === null
            ? { pool, through: ex.ledgerEnd() }
            : { pool, through: ex.ledgerEnd(), contracts: countOf(pool) },
        ),
    );
  });

  it("continues from each pool's seed: the same findings and counts as over the whole history", () => {
    const { ex, swap } = exchange('followed-seeded');
    swap(12);
    const first = judge(ex, stream(followed(ex), null));
    const judgedThrough = ex.ledgerEnd();
    const pool = ex.pools()[1]!;
    ex.moveReserves(pool.poolId, scaled(pool.reserveA, '0.5'), scaled(pool.reserveB, '0.5'));
    swap(8);
    const all = followed(ex);
    // what the mirror reads after the judged offset: each pool's last contract at or below it (with
    // its archive when that is at or below too), then the new events
    const poolOf = (e: FollowedAuditEvent): string | null =>
      e.kind === 'created' ? (verify(e.contractId, e.createdEventBlob!).provenFields?.poolId ?? null) : null;
    const lastOf = new Map<string, string>();
    for (const e of all) {
      const p = poolOf(e);
      if (p !== null && e.offset <= judgedThrough) lastOf.set(p, e.contractId);
    }
    const seeds = new Set(lastOf.values());
    const seeded = all.filter((e) => e.offset > judgedThrough || seeds.has(e.contractId));
    expect(seeded.length).toBeLessThan(all.length);
    const previous = {
      judged: new Map(first.coverage.judged.map((j) => [j.pool, j.through] as const)),
      judgedContracts: new Map(
        first.coverage.judged.flatMap((j) => (j.pool === null ? [] : [[j.pool, j.contracts ?? 0] as const])),
      ),
    };
    const whole = judge(ex, { ...stream(all, null), ...previous });
    const fromSeeds = judge(ex, { ...stream(seeded, null), ...previous });
    expect(whole.c.findings.map((f) => f.code)).toEqual(['HISTORY_LP_SHARE_VALUE_DECREASED']);
    expect(fromSeeds.c.findings).toEqual(whole.c.findings);
    expect(fromSeeds.coverage).toEqual(whole.coverage);
    expect(fromSeeds.coverage.contracts).toBe(all.filter((e) => e.kind === 'created').length);
  });

  it('a pool drained and refilled between two audits: the LP-share finding once, naming the followed contracts and offsets', () => {
    const { ex, swap } = exchange('followed-drain');
    swap(10);
    const judgedThrough = ex.ledgerEnd();
    const pool = ex.pools()[0]!;
    const drained = ex.moveReserves(pool.poolId, scaled(pool.reserveA, '0.5'), scaled(pool.reserveB, '0.5'));
    const drainOffset = ex.ledgerEnd();
    swap(4);
    const now = ex.pools().find((p) => p.poolId === pool.poolId)!;
    ex.moveReserves(pool.poolId, scaled(now.reserveA, '2'), scaled(now.reserveB, '2'));
    swap(3);
    const events = followed(ex);
    const { c, coverage } = judge(ex, stream(events, judgedThrough));
    expect(c.findings.map((f) => f.code)).toEqual(['HISTORY_LP_SHARE_VALUE_DECREASED']);
    const f = c.findings[0]!;
    expect(f.pool).toBe(pool.poolId);
    expect(f.severity).toBe('error');
    expect(f.evidence).toMatchObject({
      source: 'followed-ledger',
      contractId: drained.reserveContract.contractId,
      offset: drainOffset,
      party: 'auditor::1220f011',
    });
    expect(f.evidence.previousContractId).toBe(pool.reserveContract.contractId);
    expect(f.evidence.previousOffset).toBeLessThan(drainOffset);
    expect(f.message).toContain(`at offset ${drainOffset}`);
    expect(
      c.checks.find((k) => k.name === 'history.followed.lp-share' && k.pool === pool.poolId)?.status,
    ).toBe('fail');
    expect(coverage.newContracts).toBeLessThan(coverage.contracts);
    // the next audit judged these offsets: nothing again; the first audit (nothing judged) sees it too
    expect(judge(ex, stream(events, ex.ledgerEnd())).c.findings).toEqual([]);
    expect(judge(ex, stream(events, null)).c.findings.map((x) => x.code)).toEqual([
      'HISTORY_LP_SHARE_VALUE_DECREASED',
    ]);
    // an audit of the other pools only does not report it
    const others = ex
      .pools()
      .map((p) => p.poolId)
      .filter((id) => id !== pool.poolId);
    const othersOnly = judge(ex, stream(events, null), others);
    expect(othersOnly.c.findings).toEqual([]);
    // … and leaves that pool unjudged: the audit that audits it again reports the drain
    expect(othersOnly.coverage.judged.some((j) => j.pool === pool.poolId)).toBe(false);
    const carried = new Map(othersOnly.coverage.judged.map((j) => [j.pool, j.through] as const));
    const next = judge(ex, { ...stream(events, null), judged: carried });
    expect(next.c.findings.map((x) => x.code)).toEqual(['HISTORY_LP_SHARE_VALUE_DECREASED']);
    // an audit that judged no pool at all (its /pools/proof failed) carries every offset as it was
    const none = judge(ex, stream(events, judgedThrough), []);
    expect(none.coverage.judged.every((j) => j.through === judgedThrough)).toBe(true);
    expect(
      judge(ex, {
        ...stream(events, null),
        judged: new Map(none.coverage.judged.map((j) => [j.pool, j.through])),
      }).c.findings.map((x) => x.code),
    ).toEqual(['HISTORY_LP_SHARE_VALUE_DECREASED']);
  });

  it('a contract missing from the followed stream: RESERVE_CHAIN_GAP in the audit, once', () => {
    const { ex, swap } = exchange('followed-gap');
    swap(20);
    const events = followed(ex);
    // the middle contract of a pool with at least three: its created and archived events dropped
    const byPool = new Map<string, FollowedAuditEvent[]>();
    for (const e of events)
      if (e.kind === 'created') {
        const pool = verify(e.contractId, e.createdEventBlob!).provenFields!.poolId!;
        byPool.set(pool, [...(byPool.get(pool) ?? []), e]);
      }
    const [pool, chain] = [...byPool].find(([, l]) => l.length >= 3)!;
    const gone = chain[1]!;
    const cut = events.filter((e) => e.contractId !== gone.contractId);
    const { c } = judge(ex, stream(cut, null, ex.ledgerEnd()));
    expect(c.findings.map((f) => f.code)).toEqual(['RESERVE_CHAIN_GAP']);
    expect(c.findings[0]!.pool).toBe(pool);
    expect(c.findings[0]!.evidence).toMatchObject({
      contractId: chain[2]!.contractId,
      party: 'auditor::1220f011',
    });
    expect(c.checks.find((k) => k.name === 'ledger.chain' && k.pool === pool)?.status).toBe('fail');
    // judged through the offset of the successor: not reported again
    expect(judge(ex, stream(cut, chain[2]!.offset, ex.ledgerEnd())).c.findings).toEqual([]);
  });
});
