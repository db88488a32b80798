/**
 * Compact observations (src/io/store/observation-columns.ts, docs/mirror.md "A compact mirror") on
 * BOTH backends: an observation stores NULL where the value equals the contract row's (or, for the
 * /pools/state contract ID, the proof's), and every read returns exactly what a full row returns —
 * checked against the same mirror with its rows expanded back to the full form (what a mirror
 * recorded before schema 4 holds), including a stale /pools/state contract ID, a pool without
 * state, and a contract served with a different blob than the one stored.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import type { MirrorStore } from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);

const pools = (n: number, version: number): FixturePool[] =>
  Array.from({ length: n }, (_, i) => ({
    poolId: String(1000 + i),
    contractId: fixtureContractId(i * 1000 + version),
    reserveA: `${100 + version}.0000000000`,
    reserveB: `${200 - version}.5000000000`,
    createdAtMs: T + version * 60_000 + i,
  }));

/** snapshot `v`; in v2 pool 1000's state names another contract and pool 1002 has no state; in v3 pool 1001's blob changes */
function snapshotOf(v: number): ApiSnapshot {
  const ps = pools(3, Math.min(v, 2));
  if (v === 3) ps[1] = { ...(ps[1] as FixturePool), blob: Buffer.from('another blob').toString('base64') };
  const s = makeSnapshot(T + v * 60_000, ps);
  if (v !== 2 || !s.poolsState.ok) return s;
  const state = s.poolsState.value.data.pools.flatMap((p) =>
    p.pool_id === '1002' ? [] : [p.pool_id === '1000' ? { ...p, contract_id: fixtureContractId(7) } : p],
  );
  return { ...s, poolsState: { ok: true, value: { data: { ...s.poolsState.value.data, pools: state } } } };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Every observation read of the store. */
async function readObservations(m: MirrorStore): Promise<unknown> {
  const latest = await m.readLatestObservations();
  return {
    latest,
    pools: await Promise.all(['1000', '1001', '1002'].map((p) => m.readPoolHistory(p))),
    history: [...(await m.readObservationsForHistoryChecks({ limitPerPool: Number.MAX_SAFE_INTEGER }))],
    bounded: [...(await m.readObservationsForHistoryChecks({ limitPerPool: 2 }))],
    past: await m.readHistoryPast(new Map(latest.map((o) => [o.poolId, o.contractId ?? ''])), T + 2 * 60_000),
    points: await collect(m.iterateObservations()),
  };
}

describeBackends('compact observations', (backend) => {
  let t: TestMirror;
  beforeEach(async () => {
    t = await openTestMirror(backend);
    for (let v = 0; v < 4; v++) await t.store.recordSnapshot(snapshotOf(v));
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('omits what the contract row holds, keeps what differs, and reads the published values', async () => {
    const rows = await t.rows(
      `SELECT snapshot_id, pool_id, state_contract_id, state_is_contract, blob_sha256, ledger_created_at
       FROM observations ORDER BY snapshot_id, pool_id`,
    );
    expect(rows).toHaveLength(12);
    const flag = (x: unknown): boolean => x === true || x === 1;
    const stale = rows.find((r) => Number(r[0]) === 3 && r[1] === '1000');
    expect(stale?.[2]).toBe(fixtureContractId(7));
    expect(flag(stale?.[3])).toBe(false);
    const noState = rows.find((r) => Number(r[0]) === 3 && r[1] === '1002');
    expect([noState?.[2], flag(noState?.[3])]).toEqual([null, false]);
    const otherBlob = rows.find((r) => Number(r[0]) === 4 && r[1] === '1001');
    expect(otherBlob?.[4]).toBe(createHash('sha256').update('another blob').digest('hex'));
    // all other rows are compact
    const compact = rows.filter((r) => r !== stale && r !== noState && r !== otherBlob);
    expect(compact.every((r) => r[2] === null && flag(r[3]) && r[4] === null && r[5] === null)).toBe(true);

    const [first] = await t.store.readPoolHistory('1001');
    expect(first?.stateContractId).toBe(fixtureContractId(1000));
    expect(first?.blobSha256).toBe(
      createHash('sha256')
        .update(`blob:${fixtureContractId(1000)}`)
        .digest('hex'),
    );
    expect(first?.ledgerCreatedAt).toMatch(/^2026-11-01T12:00:00\.001/);
    const history = await t.store.readPoolHistory('1001');
    expect(history.at(-1)?.blobSha256).toBe(createHash('sha256').update('another blob').digest('hex'));
  });

  it('reads the same as the full rows a mirror from before schema 4 holds', async () => {
    const compact = await readObservations(t.store);
    // schema 5: proof reserves equal to the row's reserves are stored NULL
    expect(
      await t.count('observations WHERE contract_key IS NOT NULL AND proof_reserve_a IS NULL'),
    ).toBeGreaterThan(0);
    await t.exec(
      `UPDATE observations SET
         proof_reserve_a = coalesce(proof_reserve_a, CASE WHEN contract_key IS NOT NULL THEN reserve_a END),
         proof_reserve_b = coalesce(proof_reserve_b, CASE WHEN contract_key IS NOT NULL THEN reserve_b END),
         state_contract_id = CASE WHEN state_is_contract
           THEN (SELECT c.contract_id FROM contracts c WHERE c.ckey = observations.contract_key) ELSE state_contract_id END,
         state_is_contract = ${backend === 'sqlite' ? '0' : 'false'},
         blob_sha256 = coalesce(blob_sha256, (SELECT c.blob_sha256 FROM contracts c WHERE c.ckey = observations.contract_key)),
         ledger_created_at = coalesce(ledger_created_at,
           (SELECT c.ledger_created_at FROM contracts c WHERE c.ckey = observations.contract_key))`,
    );
    expect(await t.count('observations WHERE state_is_contract')).toBe(0);
    expect(await t.count('observations WHERE blob_sha256 IS NULL')).toBe(0);
    expect(await t.count('observations WHERE contract_key IS NOT NULL AND proof_reserve_a IS NULL')).toBe(0);
    expect(await readObservations(t.store)).toEqual(compact);
  });
});
