/**
 * The MirrorStore interface (src/io/store/mirror-store.ts) on BOTH backends — SQLite and
 * PostgreSQL (a throw-away cluster, test/setup/postgres.ts): migrations and read-only opening,
 * recording (content addressing, idempotence, last-seen, verification settling, rollback), the
 * reads (histories, latest, history-check input, batches, key ranges, observations), audit runs,
 * stats and pruning, typed errors, and two writers recording at once. The backends must agree
 * value for value: a recording replayed into both gives identical reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFinding } from '../../src/core/audit/finding.js';
import type { ContractBatch, MirrorStore } from '../../src/io/store/index.js';
import { pgSkipReason } from '../helpers/postgres.js';
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

const TABLES = ['snapshots', 'responses', 'bodies', 'contracts', 'observations'];

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const flatIds = (bs: readonly ContractBatch[]): string[] => bs.flatMap((b) => b.contractIds);

/** Everything the pipelines read from a mirror, as plain values (for cross-backend comparison). */
async function readAll(m: MirrorStore): Promise<unknown> {
  const latest = await m.readLatestObservations();
  const current = new Map(
    latest.filter((o) => o.contractId !== null).map((o) => [o.poolId, o.contractId ?? '']),
  );
  const batches = await collect(m.iterateContractBatches({}, 3));
  return {
    snapshots: (await m.readSnapshots()).map(({ recordedAtMs, ...r }) => r),
    latest,
    history: [...(await m.readObservationsForHistoryChecks({ limitPerPool: Number.MAX_SAFE_INTEGER }))],
    past: await m.readHistoryPast(current, T + 10 * 60_000),
    batches: batches.map((b) => ({ ...b, blobs: Buffer.from(b.blobs).toString('hex'), ends: [...b.ends] })),
    keys: await collect(m.iterateContractKeyRanges({}, 3)),
    observations: await collect(m.iterateObservations()),
    counts: [
      await m.countSnapshots(),
      await m.countContracts(),
      await m.countContracts({ status: 'verified' }),
    ],
    statuses: [...(await m.readVerificationStatuses(batches.flatMap((b) => b.contractIds)))].sort(),
    pools: [...(await m.readContractPools(batches.flatMap((b) => b.contractIds)))].sort(),
    runs: await m.readAuditRuns(),
  };
}

describeBackends('MirrorStore', (backend) => {
  let t: TestMirror;
  let m: MirrorStore;
  beforeEach(async () => {
    t = await openTestMirror(backend);
    m = t.store;
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('migrates a fresh mirror; reopening read-only works and refuses writes', async () => {
    expect(m.backend).toBe(backend);
    expect(m.schemaVersion).toBeGreaterThanOrEqual(3);
    await m.recordSnapshot(makeSnapshot(T, pools(2, 1)));
    const again = await t.reopen();
    expect(again.schemaVersion).toBe(m.schemaVersion);
    expect(await t.count('migrations')).toBe(m.schemaVersion);
    const ro = await t.reopen({ readonly: true });
    expect(ro.readonly).toBe(true);
    expect(await ro.countSnapshots()).toBe(1);
    await expect(ro.recordSnapshot(makeSnapshot(T + 1, pools(1, 2)))).rejects.toMatchObject({
      code: 'STORE_WRITE_FAILED',
    });
  });

  it('records one snapshot: contracts, observations, responses, content-addressed bodies', async () => {
    const snap = makeSnapshot(T, pools(3, 1));
    const r = await m.recordSnapshot(snap);
    expect(r).toMatchObject({ created: true, pools: 3, contracts: 3 });
    expect(r.newContracts).toHaveLength(3);
    expect(await t.count('contracts')).toBe(3);
    expect(await t.count('observations')).toBe(3);
    expect(await t.count('responses')).toBe(3);
    expect(await t.count('bodies')).toBe(2);
    const body = await m.readResponseBody(snap.raw[1]?.sha256 ?? '');
    expect(Buffer.from(body ?? []).toString()).toBe(Buffer.from(snap.raw[1]?.body ?? []).toString());
    expect(await m.readResponseBody('0'.repeat(64))).toBeNull();
    expect(await m.countContracts({ status: 'unchecked' })).toBe(3);
    const [row] = await m.readSnapshots();
    expect(row).toMatchObject({ id: r.snapshotId, poolCount: 3, newContracts: 3, startedAtMs: T });
    expect(row?.failedSections).toContain('stats');
  });

  it('is idempotent; a later snapshot moves last-seen only; new contracts are new', async () => {
    const snap = makeSnapshot(T, pools(2, 1));
    const a = await m.recordSnapshot(snap);
    const before = await Promise.all(TABLES.map((x) => t.count(x)));
    expect(await m.recordSnapshot(snap)).toMatchObject({
      snapshotId: a.snapshotId,
      created: false,
      newContracts: [],
    });
    expect(await Promise.all(TABLES.map((x) => t.count(x)))).toEqual(before);
    const same = await m.recordSnapshot(makeSnapshot(T + 60_000, pools(2, 1)));
    expect(same.newContracts).toEqual([]);
    const moved = await m.recordSnapshot(
      makeSnapshot(T + 120_000, [...pools(1, 2), ...pools(2, 1).slice(1)]),
    );
    expect(moved.newContracts).toEqual([fixtureContractId(2)]);
    expect(await t.count('contracts')).toBe(3);
  });

  it('stores verification and blob-read fields; a later verification settles an unchecked contract', async () => {
    const ps = pools(2, 1);
    const cid0 = ps[0]?.contractId ?? '';
    const cid1 = ps[1]?.contractId ?? '';
    const decoded = {
      reserveA: '7.0000000000',
      reserveB: '8.0000000000',
      totalLpSupply: '9.0000000000',
      createdAtMicros: BigInt(T) * 1000n + 123n,
    };
    await m.recordSnapshot(
      makeSnapshot(T, ps),
      new Map([[cid0, { status: 'verified', reason: null, decoded }]]),
    );
    const [b] = await collect(m.iterateContractBatches());
    const i0 = b?.contractIds.indexOf(cid0) ?? -1;
    expect(b?.reserveA[i0]).toBe('7.0000000000');
    expect((await m.readVerificationStatuses([cid0, cid1, 'nope'])).get(cid1)).toBe('unchecked');
    await m.recordSnapshot(makeSnapshot(T + 1, ps), {
      [cid1]: { status: 'mismatch', reason: 'CONTRACT_ID_MISMATCH: suffix differs' },
    });
    expect(await m.countContracts({ status: 'mismatch' })).toBe(1);
    const hist = (await m.readObservationsForHistoryChecks()).get(ps[0]?.poolId ?? '');
    expect(hist?.[0]).toMatchObject({ proven: true, contractCreatedAtMicros: decoded.createdAtMicros });
  });

  it('rolls back everything when a write fails inside the transaction', async () => {
    await m.recordSnapshot(makeSnapshot(T, pools(2, 1)));
    const before = await Promise.all(TABLES.map((x) => t.count(x)));
    await expect(
      m.recordSnapshot(makeSnapshot(T + 5, pools(4, 3)), new Map(), {
        beforeCommit: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toMatchObject({ code: 'STORE_WRITE_FAILED' });
    expect(await Promise.all(TABLES.map((x) => t.count(x)))).toEqual(before);
    // and keeps working
    expect((await m.recordSnapshot(makeSnapshot(T + 6, pools(4, 3)))).created).toBe(true);
  });

  it('reads: pool history with a limit, latest per pool, batches and key ranges in replay order', async () => {
    for (let v = 1; v <= 4; v++) await m.recordSnapshot(makeSnapshot(T + v * 60_000, pools(3, v)));
    const h = await m.readPoolHistory('1000');
    expect(h.map((o) => o.observedAtMs)).toEqual([1, 2, 3, 4].map((v) => T + v * 60_000));
    expect((await m.readPoolHistory('1000', { limit: 2 })).map((o) => o.observedAtMs)).toEqual([
      T + 180_000,
      T + 240_000,
    ]);
    const latest = await m.readLatestObservations();
    expect(latest.map((o) => [o.poolId, o.snapshotId])).toEqual([
      ['1000', 4],
      ['1001', 4],
      ['1002', 4],
    ]);
    const newest = await m.readObservationsForHistoryChecks({ poolIds: ['1002', '9'], limitPerPool: 2 });
    expect([...newest.keys()]).toEqual(['1002', '9']);
    expect(newest.get('1002')?.map((o) => o.snapshotId)).toEqual([3, 4]);
    const batches = await collect(m.iterateContractBatches({}, 5));
    expect(batches.map((b) => b.contractIds.length)).toEqual([5, 5, 2]);
    const keys = await collect(m.iterateContractKeyRanges({}, 5));
    expect(keys.map((k) => k.count)).toEqual([5, 5, 2]);
    const viaKeys: ContractBatch[] = [];
    for (const k of keys) viaKeys.push(await m.readContractBatch(k));
    expect(flatIds(viaKeys)).toEqual(flatIds(batches));
    const ranged = await collect(m.iterateContractBatches({ fromMs: T + 120_000, toMs: T + 180_000 }));
    expect(flatIds(ranged)).toHaveLength(3);
    expect(flatIds(await collect(m.iterateContractBatches({ poolId: '1001' })))).toHaveLength(4);
    const obs = await collect(m.iterateObservations({ fromMs: T + 120_000 }));
    expect(obs.map((o) => `${o.poolId}@${o.observedAtMs - T}`)).toEqual(
      ['1000', '1001', '1002'].flatMap((p) => [`${p}@120000`, `${p}@180000`, `${p}@240000`]),
    );
  });

  it('audit runs: findings as columns + evidence JSON; runKey makes recording idempotent', async () => {
    const snap = await m.recordSnapshot(makeSnapshot(T, pools(1, 1)));
    const f = makeFinding('PROOF_FIELD_MISMATCH', '1000', 'differs', { a: 1n, b: 'x' });
    const run = {
      snapshotId: snap.snapshotId,
      baseUrl: 'http://x',
      startedAtMs: T,
      finishedAtMs: T + 5,
      outcome: 'failed',
      checks: [],
      findings: [f, f],
      runKey: 'k1',
    };
    const id = await m.recordAuditRun(run);
    expect(await m.recordAuditRun(run)).toBe(id);
    const [r] = await m.readAuditRuns({ limit: 1 });
    expect(r).toMatchObject({ id, snapshotId: snap.snapshotId, outcome: 'failed' });
    expect(r?.findings).toHaveLength(2);
    expect(r?.findings[0]?.evidence).toEqual({ a: '1', b: 'x' });
  });

  it('stats and prune: raw responses of old snapshots go, everything read stays', async () => {
    for (let v = 1; v <= 3; v++) await m.recordSnapshot(makeSnapshot(T + v * 60_000, pools(2, v)));
    const s = await m.readMirrorStats();
    expect(s).toMatchObject({ snapshots: 3, snapshotsWithRaw: 3, pools: 2, contracts: 6, observations: 6 });
    expect(s.tables.find((x) => x.name === 'contracts')?.rows).toBe(6);
    const before = await readAll(m);
    const p = await m.pruneRawResponses(T + 150_000);
    expect(p).toMatchObject({ snapshots: 2, responses: 6 });
    expect(p.bodies).toBeGreaterThan(0);
    await m.vacuumMirror();
    expect((await m.readMirrorStats()).snapshotsWithRaw).toBe(1);
    expect(await readAll(m)).toEqual(before);
  });

  it('a closed store raises typed errors', async () => {
    const other = await t.reopen();
    await other.close();
    await expect(other.countSnapshots()).rejects.toMatchObject({ name: 'StoreError' });
  });

  it('two writers at once: every snapshot whole, each contract once, the history current', async () => {
    const w1 = await t.reopen();
    const w2 = await t.reopen();
    // both watch the same pools: half of their contracts are the same ones
    const write = async (w: MirrorStore, offset: number): Promise<void> => {
      for (let v = 1; v <= 8; v++) await w.recordSnapshot(makeSnapshot(T + v * 1000 + offset, pools(6, v)));
    };
    await Promise.all([write(w1, 0), write(w2, 500)]);
    expect(await m.countSnapshots()).toBe(16);
    expect(await m.countContracts()).toBe(6 * 8);
    expect(await t.count('observations')).toBe(16 * 6);
    const h = await m.readHistoryPast(new Map([['1000', fixtureContractId(8)]]), T);
    expect(h).not.toBeNull();
    expect(h?.folds.size).toBe(6);
  });
});

describe('SQLite and PostgreSQL agree', () => {
  it.skipIf(pgSkipReason() !== null)('the same recording gives the same reads on both backends', async () => {
    const a = await openTestMirror('sqlite');
    const b = await openTestMirror('postgres');
    try {
      for (let v = 1; v <= 12; v++) {
        // pools change contracts at different paces; one snapshot is recorded late (out of order)
        const list = pools(5, v).map((p, i) =>
          v % (i + 1) === 0 ? p : { ...p, ...pools(5, v - (v % (i + 1)) || 1)[i] },
        );
        const verify = new Map(
          list
            .filter((_p, i) => (i + v) % 3 !== 0)
            .map((p) => [
              p.contractId,
              {
                status: 'verified' as const,
                decoded: {
                  reserveA: p.reserveA,
                  reserveB: p.reserveB,
                  totalLpSupply: '1000.0000000000',
                  createdAtMicros: BigInt(p.createdAtMs) * 1000n,
                },
              },
            ]),
        );
        const at = v === 6 ? T + 2 * 60_000 + 5 : T + v * 60_000;
        for (const s of [a.store, b.store])
          await s.recordSnapshot(makeSnapshot(at, list), verify, { now: () => at });
      }
      for (const s of [a.store, b.store])
        await s.recordAuditRun({
          snapshotId: 1,
          baseUrl: 'http://x',
          startedAtMs: T,
          finishedAtMs: T,
          outcome: 'passed',
          checks: [],
          findings: [],
        });
      expect(await readAll(b.store)).toEqual(await readAll(a.store));
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });
});
