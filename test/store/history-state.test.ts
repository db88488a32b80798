/**
 * The incremental history (src/io/store/plan/history-plan.ts and its appliers, schema 3): on a long mirror with
 * honest and dishonest series (new contracts, re-served old ones, time regressions, reused IDs,
 * LP-share decreases, late re-verification, a snapshot recorded out of order), an audit's history
 * reads give the same history findings and the same market-cache timeline as folding the whole
 * series — and read O(pools) rows, not O(pools × snapshots). On both backends (SQLite, PostgreSQL).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { checkHistoryCurrent } from '../../src/core/audit/history-checks.js';
import {
  AuditCollector,
  checkHistorySeries,
  computeHistoryFold,
  findStateAt,
  type HistoryPoint,
  MARKET_STATE_HORIZON_MS,
  type MirrorHistory,
  type ProvenPool,
} from '../../src/core/audit/index.js';
import { computeReserveTimeline } from '../../src/core/audit/run-checks.js';
import { formatApiTimestamp } from '../../src/core/wire/index.js';
import {
  type ContractVerificationInput,
  type MirrorStore,
  toHistoryPoint,
} from '../../src/io/store/index.js';
import { loadMirrorHistory } from '../../src/run/audit.js';
import { type FixturePool, fixtureContractId, makeSnapshot, verifiedInputOf } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const POOLS = 6;

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const amount = (n: number): string => `${n}.0000000000`;

interface Contract extends FixturePool {
  readonly proven: boolean;
}

/** The series generator: per snapshot, each pool's contract (new, same, an old one, a regression…). */
function makeGenerator(seed: number) {
  const r = rng(seed);
  let n = 0;
  const history = new Map<string, Contract[]>();
  const current = new Map<string, Contract>();
  const make = (poolId: string, createdAtMs: number, a: number, b: number, lp: number): Contract => {
    n += 1;
    return {
      poolId,
      contractId: fixtureContractId(seed * 100_000 + n),
      reserveA: amount(a),
      reserveB: amount(b),
      lp: amount(lp),
      createdAtMs,
      proven: r() < 0.8,
    };
  };
  return (atMs: number): Contract[] => {
    const out: Contract[] = [];
    for (let i = 0; i < POOLS; i++) {
      const poolId = String(500 + i);
      const past = history.get(poolId) ?? [];
      const cur = current.get(poolId);
      const x = r();
      let next: Contract;
      if (cur === undefined) next = make(poolId, atMs - 500, 1000, 2000, 1000);
      else if (x < 0.45)
        next = cur; // idle
      else if (x < 0.8) {
        // a swap: a fee-earning product increase
        const a = Number.parseInt(cur.reserveA, 10) + 1 + Math.floor(r() * 50);
        next = make(poolId, atMs - Math.floor(r() * 900), a, Number.parseInt(cur.reserveB, 10) + 1, 1000);
      } else if (x < 0.86 && past.length > 1)
        next = past[Math.floor(r() * past.length)] ?? cur; // stale
      else if (x < 0.9)
        next = make(poolId, cur.createdAtMs - 5_000, 999, 1999, 1000); // time regression
      else if (x < 0.94)
        next = { ...cur, reserveA: amount(Number.parseInt(cur.reserveA, 10) + 7) }; // same ID, other reserves
      else if (x < 0.97)
        next = make(poolId, atMs - 100, 10, 20, 5000); // LP-share value drop
      else next = { ...cur, lp: amount(1001) }; // reused ID, other LP supply
      if (!past.includes(next)) past.push(next);
      history.set(poolId, past);
      current.set(poolId, next);
      out.push(next);
    }
    return out;
  };
}

async function record(
  m: MirrorStore,
  atMs: number,
  list: readonly Contract[],
  reverify = false,
): Promise<void> {
  const v = new Map<string, ContractVerificationInput>();
  for (const c of list) if (c.proven || reverify) v.set(c.contractId, verifiedInputOf(c));
  await m.recordSnapshot(makeSnapshot(atMs, list), v, { now: () => atMs });
}

const currentPoint = (c: Contract, atMs: number): HistoryPoint => ({
  observedAtMs: atMs,
  contractId: c.contractId,
  ledgerCreatedAtMicros: BigInt(c.createdAtMs) * 1000n,
  reserveA: c.reserveA,
  reserveB: c.reserveB,
  totalLpSupply: c.lp ?? '1000.0000000000',
  proven: true,
  template: `${'ab'.repeat(32)}:amm-pools:Amm.Pool:PoolReserve`,
  blobKey: null,
});

const provenPool = (c: Contract): ProvenPool =>
  ({
    poolId: c.poolId,
    contractId: c.contractId,
    status: 'proven',
    fields: { reserveA: c.reserveA, reserveB: c.reserveB, totalLpSupply: c.lp ?? '1000.0000000000' },
    template: null,
    ledgerCreatedAtMicros: BigInt(c.createdAtMs) * 1000n,
    entry: { ledgerCreatedAt: formatApiTimestamp(c.createdAtMs) },
  }) as unknown as ProvenPool;

/** Compares the incremental reads with the whole series for the audit of `next` at `atMs`. */
async function compareAt(
  m: MirrorStore,
  next: readonly Contract[],
  atMs: number,
): Promise<{ rows: number; findings: number }> {
  const current = new Map(next.map((c) => [c.poolId, c.contractId]));
  const before = m.readMirrorReadStats().rows;
  const inc = await loadMirrorHistory(m, current, atMs);
  const rows = m.readMirrorReadStats().rows - before;
  expect(inc.pools).toBeDefined(); // the incremental path was taken
  const series = new Map<string, HistoryPoint[]>();
  for (const [poolId, list] of await m.readObservationsForHistoryChecks({
    limitPerPool: Number.MAX_SAFE_INTEGER,
  }))
    series.set(poolId, list.map(toHistoryPoint));
  const full: MirrorHistory = { series, known: inc.known, lastSeenPools: new Map() };
  let findings = 0;
  for (const c of next) {
    const point = currentPoint(c, atMs);
    const past = inc.pools?.get(c.poolId);
    if (past === undefined) throw new Error(`no past for ${c.poolId}`);
    // the kept fold is the fold of the whole series
    expect(past.fold).toEqual(computeHistoryFold(series.get(c.poolId) ?? []));
    const a = new AuditCollector();
    checkHistoryCurrent(a, c.poolId, past.fold, past.prior ?? undefined, point);
    const s = series.get(c.poolId) ?? [];
    const b = new AuditCollector();
    checkHistorySeries(b, c.poolId, [...s, point], s.length);
    expect(a.findings).toEqual(b.findings);
    expect(a.checks).toEqual(b.checks);
    findings += a.findings.length;
  }
  // the market-cache timeline: the same known state at every instant a window can reach
  const proven = new Map(next.map((c) => [c.poolId, provenPool(c)]));
  const tInc = computeReserveTimeline(inc, proven);
  const tFull = computeReserveTimeline(full, proven);
  for (const c of next)
    for (let at = atMs - MARKET_STATE_HORIZON_MS; at <= atMs + 5_000; at += 7_000)
      expect(findStateAt(tInc, c.poolId, at)).toEqual(findStateAt(tFull, c.poolId, at));
  // the latest contract of every pool
  const latest = new Map<string, string>();
  for (const o of await m.readLatestObservations())
    if (o.contractId !== null) latest.set(o.poolId, o.contractId);
  expect(inc.lastSeenPools).toEqual(latest);
  return { rows, findings };
}

describeBackends('incremental history', (backend) => {
  let t: TestMirror;
  let mirror: MirrorStore;
  beforeEach(async () => {
    t = await openTestMirror(backend);
    mirror = t.store;
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('gives the findings of the whole series on a long mirror, reading O(pools) rows', async () => {
    const gen = makeGenerator(7);
    let at = T;
    let totalFindings = 0;
    const rowsAt: number[] = [];
    for (let s = 1; s <= 400; s++) {
      at += 2_000 + (s % 3) * 500;
      const list = gen(at);
      if (s % 100 === 0 || s === 30) {
        const r = await compareAt(mirror, list, at);
        rowsAt.push(r.rows);
        totalFindings += r.findings;
      }
      await record(mirror, at, list);
    }
    // the checks found something to agree on
    expect(totalFindings).toBeGreaterThan(0);
    // rows read do not grow with the mirror: a pool's fold, its prior, its recent contracts
    for (const rows of rowsAt) expect(rows).toBeLessThan(POOLS * 40);
    const observations = await t.count('observations');
    expect(observations).toBe(400 * POOLS);
  });

  it('stays exact through a late re-verification and a snapshot recorded out of order', async () => {
    const gen = makeGenerator(11);
    let at = T;
    const kept: { at: number; list: Contract[] }[] = [];
    for (let s = 1; s <= 120; s++) {
      at += 3_000;
      const list = gen(at);
      if (s % 10 === 5) {
        kept.push({ at, list });
        continue; // recorded later, out of order
      }
      // every 7th snapshot re-verifies its contracts (unchecked → verified: the pool is re-folded)
      await record(mirror, at, list, s % 7 === 0);
      if (s % 7 === 0) await compareAt(mirror, gen(at + 3_000), at + 3_000);
      if (s % 40 === 0) {
        const old = kept.shift();
        if (old !== undefined) await record(mirror, old.at, old.list);
        await compareAt(mirror, gen(at + 3_000), at + 3_000);
      }
    }
  });

  it('steps the folds back for snapshots recorded out of order, without re-reading the series', async () => {
    // two watchers' snapshots committing in the other order: each held back one to three snapshots
    for (const seed of [5, 23]) {
      const gen = makeGenerator(seed);
      let at = T + seed * 10_000_000;
      const held: { at: number; list: Contract[]; due: number }[] = [];
      let stepped = 0;
      let late = 0;
      for (let s = 1; s <= 90; s++) {
        at += 2_500;
        const list = gen(at);
        if (s > 16 && s % 4 === 0) held.push({ at, list, due: s + 1 + (s % 3) });
        else await record(mirror, at, list);
        for (const h of held.filter((x) => x.due === s)) {
          held.splice(held.indexOf(h), 1);
          const before = mirror.readMirrorReadStats().rows;
          await record(mirror, h.at, h.list);
          late += 1;
          // the recording reads at most one row per observed contract (is it known?); a re-fold
          // reads every observation of the pools it re-folds (more than 16 each by now)
          if (mirror.readMirrorReadStats().rows - before <= POOLS) stepped += 1;
          await compareAt(mirror, gen(at + 2_500), at + 2_500);
        }
      }
      expect(late).toBeGreaterThan(12);
      // nearly all late snapshots are stepped back (a re-fold remains for a contract's first point
      // moved with another ledger time, or a tie), and every one of them is exact (compareAt)
      expect(stepped).toBeGreaterThanOrEqual(Math.ceil(0.9 * late));
    }
  });

  it('a late snapshot hands the last proven place to a contract first seen in between', async () => {
    const poolId = '700';
    const make = (n: number, createdAtMs: number, a: number): Contract => ({
      poolId,
      contractId: fixtureContractId(900_000 + n),
      reserveA: amount(a),
      reserveB: amount(2 * a),
      lp: amount(1000),
      createdAtMs,
      proven: true,
    });
    const w = make(1, T - 1_000, 100);
    const y = make(2, T + 15_000, 110);
    const x = make(3, T + 5_000, 120);
    await record(mirror, T, [w]);
    // X was observed at T + 10 s by a snapshot that commits last; Y first at + 20 s, X again at + 30 s
    await record(mirror, T + 20_000, [y]);
    await record(mirror, T + 30_000, [x]);
    await record(mirror, T + 40_000, [x]);
    const before = mirror.readMirrorReadStats().rows;
    await record(mirror, T + 10_000, [x]);
    expect(mirror.readMirrorReadStats().rows - before).toBeLessThanOrEqual(1);
    // the fold is the whole series' (compareAt): the last proven first point is now Y's
    await compareAt(mirror, [x], T + 50_000);
  });

  it('a mirror migrated without folds reads the whole series once, then incrementally', async () => {
    const gen = makeGenerator(3);
    let at = T;
    for (let s = 1; s <= 20; s++) {
      at += 2_000;
      await record(mirror, at, gen(at));
    }
    // as if migrated from version 2: folds not current
    await t.exec('UPDATE history_state SET through_snapshot_id = -1');
    await t.exec('DELETE FROM pool_history');
    at += 2_000;
    const next = gen(at);
    const h = await loadMirrorHistory(mirror, new Map(next.map((c) => [c.poolId, c.contractId])), at);
    expect(h.pools).toBeUndefined();
    expect(h.series?.size).toBe(POOLS);
    await record(mirror, at, next);
    await compareAt(mirror, gen(at + 2_000), at + 2_000);
  });
});
