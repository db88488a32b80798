/**
 * Replay's observation read by contract key (src/io/store/lookups.ts `iterateObservationKeyPages`,
 * `readContractsByKey`; the PostgreSQL twins in pg/contract-reads.ts) on BOTH backends: resolving
 * each row's contract key to the contract's ID and ledger time gives exactly the points of
 * `iterateObservations` (which reads the contract row for every observation) — on a compact mirror
 * (ledger times omitted) and with some rows expanded to the full form; the batches' row keys are
 * the contract rows' keys.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type {
  ContractBatch,
  MirrorStore,
  ObservationKeyRow,
  ObservationPoint,
} from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const T = Date.UTC(2026, 10, 2, 12, 0, 0);

/** 3 pools; a new contract for pool `1000 + v % 3` in snapshot v, the others keep theirs */
function snapshotOf(v: number): ReturnType<typeof makeSnapshot> {
  const ps: FixturePool[] = [0, 1, 2].map((i) => {
    const version = v >= i ? Math.floor((v - i) / 3) * 3 + i : 0;
    return {
      poolId: String(1000 + i),
      contractId: fixtureContractId(i * 1000 + version),
      reserveA: `${100 + version}.0000000000`,
      reserveB: `${200 - version}.5000000000`,
      createdAtMs: T + version * 60_000 + i,
    };
  });
  return makeSnapshot(T + v * 60_000, ps);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The key rows of a range resolved to ObservationPoints the way replay resolves them. */
async function resolveKeyRows(m: MirrorStore, range = {}): Promise<ObservationPoint[]> {
  const rows: ObservationKeyRow[] = (await collect(m.iterateObservationKeyPages(range))).flat();
  const keys = rows.flatMap((r) => (r[2] === null ? [] : [r[2]]));
  const ids = await m.readContractsByKey([...new Set(keys), 987_654]);
  expect(ids.has(987_654)).toBe(false);
  return rows.map((r) => {
    const c = r[2] === null ? undefined : ids.get(r[2]);
    return {
      poolId: r[0],
      observedAtMs: r[1],
      contractId: c?.contractId ?? null,
      ledgerCreatedAt: r[3] ?? c?.ledgerCreatedAt ?? null,
      reserveA: r[4],
      reserveB: r[5],
      totalLpSupply: r[6],
    };
  });
}

describeBackends('observations by contract key', (backend) => {
  let t: TestMirror;
  beforeEach(async () => {
    t = await openTestMirror(backend);
    for (let v = 0; v < 7; v++) await t.store.recordSnapshot(snapshotOf(v));
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('resolve to exactly the points iterateObservations reads, compact or full', async () => {
    const points = await collect(t.store.iterateObservations());
    expect(points).toHaveLength(21);
    expect(await t.count('observations WHERE ledger_created_at IS NULL AND contract_key IS NOT NULL')).toBe(
      21,
    );
    expect(await resolveKeyRows(t.store)).toEqual(points);
    const range = { fromMs: T + 2 * 60_000, toMs: T + 5 * 60_000 };
    const ranged = await collect(t.store.iterateObservations(range));
    expect(ranged).toHaveLength(9);
    expect(await resolveKeyRows(t.store, range)).toEqual(ranged);
    // some rows in the full form (a mirror from before schema 4): the stored ledger time is read as is
    await t.exec(
      `UPDATE observations SET ledger_created_at =
         (SELECT c.ledger_created_at FROM contracts c WHERE c.ckey = observations.contract_key)
       WHERE pool_id = '1001'`,
    );
    const keyRows = (await collect(t.store.iterateObservationKeyPages())).flat();
    expect(keyRows.filter((r) => r[0] === '1001').every((r) => r[3] !== null)).toBe(true);
    expect(keyRows.filter((r) => r[0] !== '1001').every((r) => r[3] === null)).toBe(true);
    expect(await resolveKeyRows(t.store)).toEqual(points);
  });

  it('batches carry the contract rows keys', async () => {
    const batches: ContractBatch[] = await collect(t.store.iterateContractBatches({}, 4));
    const rows = await t.rows('SELECT contract_id, ckey FROM contracts');
    const keyOf = new Map(rows.map((r) => [String(r[0]), Number(r[1])]));
    const ids = batches.flatMap((b) => b.contractIds);
    expect(ids.length).toBe(rows.length);
    expect(batches.flatMap((b) => b.contractKeys)).toEqual(ids.map((id) => keyOf.get(id)));
    const ranges = await collect(t.store.iterateContractKeyRanges({}, 4));
    const byRange = await Promise.all(ranges.map((r) => t.store.readContractBatch(r)));
    expect(byRange).toEqual(batches);
  });
});
