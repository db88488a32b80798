/**
 * Contract keys (schema 5, src/io/store/schema/005-contract-keys.ts):
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
import {
  iterateContracts,
  type MirrorContract,
  type MirrorStore,
  openMirror,
  openMirrorStore,
} from '../../src/io/store/index.js';
import { applyMigrations } from '../../src/io/store/migration-runner.js';
import { buildMigrations } from '../../src/io/store/schema/versions.js';
import { PG_BACK_TO_6, POOL_IDS, readAll, snapshotOf } from './mirror-reads.js';
import { describeBackends, latestSchemaVersion, openTestMirror, type TestMirror } from './store-backends.js';

/** SQLite: a schema-`version` file (4 or 5) holding the rows of the latest-schema mirror at `from`. */
function buildOldCopy(from: string, to: string, version: 4 | 5): void {
  const db = new Database(to);
  try {
    applyMigrations(
      db,
      buildMigrations('sqlite').filter((m) => m.version <= version),
      { table: 'migrations', now: () => 0 },
    );
    db.exec(`ATTACH '${from}' AS s; DELETE FROM history_state;`);
    const columns = (table: string): string[] =>
      db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[];
    const tmpl = ['package_id', 'package_name', 'module_name', 'entity_name'];
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
      const cols = columns(table);
      // contracts: the template strings back from the lookup table (schema 6)
      const select = cols
        .map((c) =>
          tmpl.includes(c) ? `(SELECT t.${c} FROM s.templates t WHERE t.id = x.template_key)` : `x.${c}`,
        )
        .join(', ');
      db.exec(`INSERT INTO main.${table} (${cols.join(', ')}) SELECT ${select} FROM s.${table} x`);
    }
    for (const table of ['observations', 'pool_contracts']) {
      const cols = columns(table);
      const select = cols.map((c) => (c === 'contract_id' ? 'k.contract_id' : `x.${c}`)).join(', ');
      db.exec(
        `INSERT INTO main.${table} (${cols.join(', ')}) SELECT ${select}
         FROM s.${table} x LEFT JOIN s.contracts k ON k.ckey = x.contract_key`,
      );
    }
    expect(db.prepare('SELECT max(version) FROM migrations').pluck().get()).toBe(version);
  } finally {
    db.close();
  }
}

/** PostgreSQL: takes the database back to schema 5 (template strings in the contract row). */
export const PG_BACK_TO_5 = [
  ...PG_BACK_TO_6,
  `ALTER TABLE contracts ADD COLUMN package_id TEXT, ADD COLUMN package_name TEXT, ADD COLUMN module_name TEXT,
     ADD COLUMN entity_name TEXT`,
  `UPDATE contracts c SET package_id = t.package_id, package_name = t.package_name, module_name = t.module_name,
     entity_name = t.entity_name FROM templates t WHERE t.id = c.template_key`,
  `ALTER TABLE contracts ALTER COLUMN package_id SET NOT NULL, ALTER COLUMN package_name SET NOT NULL,
     ALTER COLUMN module_name SET NOT NULL, ALTER COLUMN entity_name SET NOT NULL`,
  'ALTER TABLE contracts DROP COLUMN template_key',
  'DROP TABLE templates',
  'DELETE FROM migrations WHERE version = 6',
];

/** PostgreSQL: takes the database back to schema 4 (contract IDs as text, contracts_history). */
const PG_BACK_TO_4 = [
  ...PG_BACK_TO_5,
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
  'DELETE FROM migrations WHERE version = 5',
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
      buildOldCopy(t.target, old, 4);
      migrated = await openMirrorStore(old);
    } else {
      for (const sql of PG_BACK_TO_4) await t.exec(sql);
      expect(await t.count('observations WHERE contract_id IS NOT NULL')).toBe(8 * POOL_IDS.length);
      migrated = await t.reopen();
    }
    extra.push(migrated);
    expect(migrated.schemaVersion).toBe(latestSchemaVersion(backend));
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
  it('a mirror of schema 5 / 6 (template strings in every contract row) migrates to template keys and reads exactly the same', async () => {
    const expected = await readAll(t.store);
    let migrated: MirrorStore;
    if (backend === 'sqlite') {
      await t.store.close();
      const old = join(dir, 'schema5.db');
      buildOldCopy(t.target, old, 5);
      const contracts = (path: string): MirrorContract[] => {
        const m = openMirror(path, { readonly: true });
        try {
          return [...iterateContracts(m)];
        } finally {
          m.close();
        }
      };
      const want = contracts(t.target);
      expect(want[0]?.entityName).not.toBe('');
      const db = new Database(old, { readonly: true });
      const [distinct, rows] = db
        .prepare('SELECT count(DISTINCT package_id || entity_name), count(*) FROM contracts')
        .raw()
        .get() as [number, number];
      expect([distinct, rows > 8]).toEqual([1, true]);
      db.close();
      migrated = await openMirrorStore(old);
      expect(contracts(old)).toEqual(want);
      // bodies: a rowid table now (appended in insertion order), still the parent of responses
      const db2 = new Database(old, { readonly: true });
      const sql = String(db2.prepare("SELECT sql FROM sqlite_master WHERE name = 'bodies'").pluck().get());
      expect(sql).not.toMatch(/WITHOUT ROWID/i);
      expect(db2.pragma('foreign_key_check')).toEqual([]);
      expect(
        db2
          .prepare('SELECT count(*) FROM responses r JOIN bodies b ON b.sha256 = r.body_sha256')
          .pluck()
          .get(),
      ).toBe(db2.prepare('SELECT count(*) FROM responses').pluck().get());
      db2.close();
    } else {
      for (const sql of PG_BACK_TO_5) await t.exec(sql);
      expect(await t.count("contracts WHERE package_id <> ''")).toBe(await t.count('contracts'));
      migrated = await t.reopen();
    }
    extra.push(migrated);
    expect(migrated.schemaVersion).toBe(latestSchemaVersion(backend));
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

  it('a template is stored once; contract rows hold its key', async () => {
    expect(
      await t.rows('SELECT package_id, package_name, module_name, entity_name FROM templates'),
    ).toHaveLength(1);
    const all = await t.count('contracts');
    expect(all).toBeGreaterThan(8);
    expect(await t.count('contracts WHERE template_key IS NOT NULL')).toBe(all);
    const cols = await t.rows(
      backend === 'sqlite'
        ? "SELECT name FROM pragma_table_info('contracts') WHERE name LIKE '%package%'"
        : "SELECT column_name FROM information_schema.columns WHERE table_name = 'contracts' AND column_name LIKE '%package%'",
    );
    expect(cols).toEqual([]);
  });
});
