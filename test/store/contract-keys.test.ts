/**
 * Contract keys (SQLite schema 5 / PostgreSQL 6, src/io/store/migrations/005-contract-keys.ts):
 * observations and pool_contracts reference contracts by their integer key. On BOTH backends, a
 * mirror in the previous schema (contract IDs as text in both tables, `contracts_history`) —
 * SQLite: a real schema-4 file built by migrations 1–4 and filled with the same rows;
 * PostgreSQL: the same database taken back to schema 5 — migrates and gives exactly the reads of
 * the mirror recorded in the new schema, and recording goes on (new keys after the migrated ones)
 * with the same reads as a mirror that recorded everything in the new schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import { type ContractBatch, type MirrorStore, openMirrorStore } from '../../src/io/store/index.js';
import { applyMigrations } from '../../src/io/store/migration-runner.js';
import { MIGRATIONS } from '../../src/io/store/migrations/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const POOL_IDS = ['1000', '1001', '1002', '1003'];

/** snapshot `v`: pool i changes contract every (i + 1) snapshots; in v3 pool 1000's state is stale, in v4 pool 1002 has none */
function snapshotOf(v: number): ApiSnapshot {
  const ps: FixturePool[] = POOL_IDS.map((poolId, i) => {
    const gen = Math.floor(v / (i + 1));
    return {
      poolId,
      contractId: fixtureContractId(i * 1000 + gen),
      reserveA: `${100 + gen}.0000000000`,
      reserveB: `${200 - gen}.5000000000`,
      createdAtMs: T + gen * (i + 1) * 60_000 + i,
    };
  });
  const s = makeSnapshot(T + v * 60_000, ps);
  if ((v !== 3 && v !== 4) || !s.poolsState.ok) return s;
  const state = s.poolsState.value.data.pools.flatMap((p) =>
    v === 4 && p.pool_id === '1002'
      ? []
      : [v === 3 && p.pool_id === '1000' ? { ...p, contract_id: fixtureContractId(7) } : p],
  );
  return { ...s, poolsState: { ok: true, value: { data: { ...s.poolsState.value.data, pools: state } } } };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Every read of the store that involves contracts, observations or the incremental history. */
/** A batch without its row keys (the PostgreSQL migration numbers existing rows afresh). */
const withoutKeys = ({ contractKeys: _, ...b }: ContractBatch): Omit<ContractBatch, 'contractKeys'> => b;

async function readAll(m: MirrorStore): Promise<unknown> {
  const latest = await m.loadLatestObservations();
  const ranges = await collect(m.iterateContractKeyRanges({}, 3));
  return {
    latest,
    pools: await Promise.all(POOL_IDS.map((p) => m.loadPoolHistory(p))),
    history: [...(await m.loadObservationsForHistoryChecks({ limitPerPool: Number.MAX_SAFE_INTEGER }))],
    bounded: [...(await m.loadObservationsForHistoryChecks({ limitPerPool: 2 }))],
    past: await m.loadHistoryPast(new Map(latest.map((o) => [o.poolId, o.contractId ?? ''])), T + 3 * 60_000),
    points: await collect(m.iterateObservations()),
    batches: (await collect(m.iterateContractBatches({}, 3))).map(withoutKeys),
    byKey: (await Promise.all(ranges.map((r) => m.loadContractBatch(r)))).map(withoutKeys),
    pools2: await m.loadContractPools([fixtureContractId(0), fixtureContractId(1001), 'absent']),
    contracts: await m.countContracts(),
  };
}

/** SQLite: a schema-4 file (migrations 1–4) holding the rows of the schema-5 mirror at `from`. */
function buildSchema4Copy(from: string, to: string): void {
  const db = new Database(to);
  try {
    applyMigrations(
      db,
      MIGRATIONS.filter((m) => m.version <= 4),
      { table: 'migrations', now: () => 0 },
    );
    db.exec(`ATTACH '${from}' AS s; DELETE FROM history_state;`);
    const columns = (table: string): string[] =>
      (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).filter(
        (c) => c !== 'ckey',
      );
    for (const table of [
      'snapshots',
      'bodies',
      'responses',
      'blob_dictionaries',
      'contracts',
      'pool_history',
      'history_state',
      'audit_runs',
      'findings',
    ]) {
      const cols = columns(table).join(', ');
      db.exec(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM s.${table}`);
    }
    for (const table of ['observations', 'pool_contracts']) {
      const cols = columns(table);
      const select = cols.map((c) => (c === 'contract_id' ? 'k.contract_id' : `x.${c}`)).join(', ');
      db.exec(
        `INSERT INTO main.${table} (${cols.join(', ')}) SELECT ${select}
         FROM s.${table} x LEFT JOIN s.contracts k ON k.ckey = x.contract_key`,
      );
    }
    expect(db.prepare('SELECT max(version) FROM migrations').pluck().get()).toBe(4);
  } finally {
    db.close();
  }
}

/** PostgreSQL: takes the database back to schema 5 (contract IDs as text, contracts_history). */
const PG_BACK_TO_5 = [
  'ALTER TABLE observations ADD COLUMN contract_id TEXT COLLATE "C" REFERENCES contracts (contract_id)',
  'UPDATE observations o SET contract_id = c.contract_id FROM contracts c WHERE c.ckey = o.contract_key',
  'ALTER TABLE observations DROP COLUMN contract_key',
  'ALTER TABLE pool_contracts ADD COLUMN contract_id TEXT COLLATE "C" REFERENCES contracts (contract_id)',
  'UPDATE pool_contracts pc SET contract_id = c.contract_id FROM contracts c WHERE c.ckey = pc.contract_key',
  'ALTER TABLE pool_contracts DROP COLUMN contract_key',
  'ALTER TABLE pool_contracts ALTER COLUMN contract_id SET NOT NULL',
  'ALTER TABLE pool_contracts ADD PRIMARY KEY (pool_id, contract_id)',
  'ALTER TABLE contracts DROP COLUMN ckey',
  `CREATE INDEX contracts_history ON contracts (contract_id) INCLUDE (verification_status, verification_reason,
     reserve_a, reserve_b, total_lp_supply, created_at_ms, created_at_micros, fields_source, package_id, package_name,
     module_name, entity_name)`,
  'DELETE FROM migrations WHERE version = 6',
];

describeBackends('contract keys', (backend) => {
  let t: TestMirror;
  let dir: string;
  const extra: MirrorStore[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ra-keys-'));
    t = await openTestMirror(backend);
    for (let v = 0; v < 8; v++) await t.store.recordSnapshot(snapshotOf(v));
  });
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('observations and pool_contracts hold integer keys, no contract ID text', async () => {
    const keys = await t.rows('SELECT contract_key FROM observations WHERE contract_key IS NOT NULL');
    expect(keys.length).toBe(8 * POOL_IDS.length);
    expect(keys.every((r) => Number.isSafeInteger(Number(r[0])))).toBe(true);
    const unknown = await t.rows(
      'SELECT count(*) FROM pool_contracts pc LEFT JOIN contracts c ON c.ckey = pc.contract_key WHERE c.ckey IS NULL',
    );
    expect(Number(unknown[0]?.[0])).toBe(0);
    const distinct = await t.rows('SELECT count(DISTINCT ckey), count(*) FROM contracts');
    expect(Number(distinct[0]?.[0])).toBe(Number(distinct[0]?.[1]));
  });

  it('a mirror of the previous schema migrates and reads exactly the same; recording goes on', async () => {
    const expected = await readAll(t.store);
    let migrated: MirrorStore;
    if (backend === 'sqlite') {
      await t.store.close();
      const old = join(dir, 'schema4.db');
      buildSchema4Copy(t.target, old);
      migrated = await openMirrorStore(old);
    } else {
      for (const sql of PG_BACK_TO_5) await t.exec(sql);
      expect(await t.count('observations WHERE contract_id IS NOT NULL')).toBe(8 * POOL_IDS.length);
      migrated = await t.reopen();
    }
    extra.push(migrated);
    expect(migrated.schemaVersion).toBe(backend === 'sqlite' ? 5 : 6);
    expect(await readAll(migrated)).toEqual(expected);
    // recording continues: new contracts get keys after the migrated ones, reads agree with the original
    for (let v = 8; v < 11; v++) await migrated.recordSnapshot(snapshotOf(v));
    const fresh = await openTestMirror(backend);
    try {
      for (let v = 0; v < 11; v++) await fresh.store.recordSnapshot(snapshotOf(v));
      const want = await readAll(fresh.store);
      expect(await readAll(migrated)).toEqual(want);
    } finally {
      await fresh.dispose();
    }
  });
});
