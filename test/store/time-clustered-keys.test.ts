/**
 * Time-clustered keys (schema 7, src/io/store/schema/007-time-clustered-keys.ts):
 * no `contracts_pool` nor `responses_body` (pruning builds it for its transaction), and `pool_contracts`
 * keyed by (contract key, pool). On BOTH backends, a
 * mirror taken back to the previous schema migrates and gives exactly the reads it gave before,
 * and recording goes on with the same reads as a mirror that recorded everything in the new schema.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { MirrorStore } from '../../src/io/store/index.js';
import { PG_BACK_TO_6, readAll, SQLITE_BACK_TO_7, snapshotOf } from './mirror-reads.js';
import { describeBackends, latestSchemaVersion, openTestMirror, type TestMirror } from './store-backends.js';

/** SQLite: takes the mirror back to schema 6 (`contracts_pool`; `pool_contracts` keyed by pool first). */
const SQLITE_BACK_TO_6 = [
  ...SQLITE_BACK_TO_7,
  `CREATE TABLE pool_contracts_v6 (
     pool_id TEXT NOT NULL,
     contract_key INTEGER NOT NULL REFERENCES contracts (ckey),
     first_snapshot_id INTEGER NOT NULL,
     first_observed_at_ms INTEGER NOT NULL,
     first_ledger_created_at TEXT,
     first_ledger_created_at_ms INTEGER,
     PRIMARY KEY (pool_id, contract_key)
   ) WITHOUT ROWID`,
  'INSERT INTO pool_contracts_v6 SELECT * FROM pool_contracts',
  'DROP TABLE pool_contracts',
  'ALTER TABLE pool_contracts_v6 RENAME TO pool_contracts',
  'CREATE INDEX pool_contracts_ledger ON pool_contracts (pool_id, first_ledger_created_at_ms)',
  'CREATE INDEX contracts_pool ON contracts (pool_id, created_at_ms)',
  'CREATE INDEX responses_body ON responses (body_sha256)',
  'DELETE FROM migrations WHERE version = 7',
];

/** The key columns of `pool_contracts` in order, and the indexes of schema 6 that schema 7 drops. */
async function readKeys(t: TestMirror): Promise<{ key: string[]; dropped: string[] }> {
  const names = "('contracts_pool', 'responses_body', 'prune_responses_body')";
  if (t.backend === 'sqlite') {
    const key = (
      await t.rows(
        `SELECT name FROM pragma_index_info((SELECT name FROM pragma_index_list('pool_contracts') WHERE origin = 'pk'))
         ORDER BY seqno`,
      )
    ).map((r) => String(r[0]));
    const dropped = await t.rows(
      `SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ${names} ORDER BY name`,
    );
    return { key, dropped: dropped.map((r) => String(r[0])) };
  }
  const def = await t.rows("SELECT indexdef FROM pg_indexes WHERE indexname = 'pool_contracts_pkey'");
  const cols = /\(([^)]*)\)/.exec(String(def[0]?.[0]))?.[1] ?? '';
  const dropped = await t.rows(`SELECT indexname FROM pg_indexes WHERE indexname IN ${names} ORDER BY 1`);
  return { key: cols.split(',').map((c) => c.trim()), dropped: dropped.map((r) => String(r[0])) };
}

const NEW = { key: ['contract_key', 'pool_id'], dropped: [] };

describeBackends('time-clustered keys', (backend) => {
  let t: TestMirror;
  const extra: MirrorStore[] = [];
  beforeEach(async () => {
    t = await openTestMirror(backend);
    for (let v = 0; v < 8; v++) await t.store.recordSnapshot(snapshotOf(v));
  });
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
    await t.dispose();
  });

  it('pool_contracts is keyed by contract key first; no contracts_pool, no responses_body', async () => {
    expect(await readKeys(t)).toEqual(NEW);
  });

  it('pruning builds its index of responses by body for its transaction only', async () => {
    const bodies = await t.count('bodies');
    const r = await t.store.pruneRawResponses(Number.MAX_SAFE_INTEGER);
    expect(r.responses).toBeGreaterThan(0);
    expect(r.bodies).toBe(bodies);
    expect(await t.count('bodies')).toBe(0);
    expect(await readKeys(t)).toEqual(NEW);
    // and again, with nothing left to prune
    expect((await t.store.pruneRawResponses(Number.MAX_SAFE_INTEGER)).bodies).toBe(0);
    expect(await readKeys(t)).toEqual(NEW);
  });

  it('a mirror of the previous schema migrates and reads exactly the same; recording goes on', async () => {
    const expected = await readAll(t.store);
    for (const sql of backend === 'sqlite' ? SQLITE_BACK_TO_6 : PG_BACK_TO_6) await t.exec(sql);
    expect(await readKeys(t)).toEqual({
      key: ['pool_id', 'contract_key'],
      dropped: ['contracts_pool', 'responses_body'],
    });
    const migrated = await t.reopen();
    extra.push(migrated);
    expect(migrated.schemaVersion).toBe(latestSchemaVersion(backend));
    expect(await readKeys(t)).toEqual(NEW);
    expect(await readAll(migrated)).toEqual(expected);
    for (let v = 8; v < 11; v++) await migrated.recordSnapshot(snapshotOf(v));
    const fresh = await openTestMirror(backend);
    try {
      for (let v = 0; v < 11; v++) await fresh.store.recordSnapshot(snapshotOf(v));
      expect(await readAll(migrated)).toEqual(await readAll(fresh.store));
    } finally {
      await fresh.dispose();
    }
  });
});
