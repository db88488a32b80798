/**
 * The one version list (src/io/store/schema/versions.ts): the same numbers and names on both
 * backends, and mirrors written under the two lists it replaced open and upgrade with nothing lost.
 * - SQLite: the old list was versions 1–10 with the very DDL of today's 1–10; an old mirror is a
 *   mirror without version 11 (the replay queue, empty in SQLite). It reads without migrating, and a
 *   read-write open records 11.
 * - PostgreSQL: the old list had the replay queue as version 4 and today's 4–7 as 5–8, with the
 *   very DDL of today's (today's 8–10 are empty there). A mirror numbered so — today's mirror with
 *   its `migrations` rows written back the old way, which is byte for byte what the old code left —
 *   is renumbered (src/io/store/schema/legacy-postgres.ts) and migrated; it reads exactly the same,
 *   recording and the replay queue go on.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, type MirrorStore } from '../../src/io/store/index.js';
import { buildMigrations } from '../../src/io/store/schema/versions.js';
import { readAll, snapshotOf } from './mirror-reads.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

/** PostgreSQL: today's `migrations` rows written back in the numbering of the old PostgreSQL list. */
/** what a build before schema 12 (failed attempts) and 13 (ledger events) left: neither version, no tables */
const BEFORE_FAILED_ATTEMPTS = [
  'DELETE FROM migrations WHERE version = 13',
  'DROP TABLE ledger_events',
  'DROP TABLE ledger_follow_state',
  'DELETE FROM migrations WHERE version = 12',
  'DROP TABLE failed_attempts',
];
const PG_OLD_NUMBERING = [
  ...BEFORE_FAILED_ATTEMPTS,
  'DELETE FROM migrations WHERE version BETWEEN 8 AND 10',
  'UPDATE migrations SET version = -(version + 1) WHERE version BETWEEN 4 AND 7',
  'UPDATE migrations SET version = -4 WHERE version = 11',
  'UPDATE migrations SET version = -version WHERE version < 0',
];
const PG_OLD_ROWS = [
  [1, 'initial'],
  [2, 'history-indexes'],
  [3, 'history-state'],
  [4, 'replay-queue'],
  [5, 'compact-mirror'],
  [6, 'contract-keys'],
  [7, 'template-keys'],
  [8, 'time-clustered-keys'],
];

describeBackends('one version list', (backend) => {
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

  it('a fresh mirror records every version of the one list, with its name', async () => {
    const rows = await t.rows('SELECT version, name FROM migrations ORDER BY version');
    expect(rows.map((r) => [Number(r[0]), r[1]])).toEqual(
      buildMigrations(backend).map((m) => [m.version, m.name]),
    );
    expect(t.store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  it('a mirror of the old list opens, upgrades and reads exactly the same; recording goes on', async () => {
    const expected = await readAll(t.store);
    if (backend === 'sqlite') {
      await t.exec('DELETE FROM migrations WHERE version = 11');
      for (const sql of BEFORE_FAILED_ATTEMPTS) await t.exec(sql);
      // version 11 is empty in SQLite, version 12 is not: read-only, the old mirror asks to be migrated
      await expect(t.reopen({ readonly: true })).rejects.toMatchObject({
        code: 'STORE_SCHEMA_UNSUPPORTED',
        message: expect.stringMatching(/got 10 \(open it once read-write to migrate\)/),
      });
    } else {
      for (const sql of PG_OLD_NUMBERING) await t.exec(sql);
      const rows = await t.rows('SELECT version, name FROM migrations ORDER BY version');
      expect(rows.map((r) => [Number(r[0]), r[1]])).toEqual(PG_OLD_ROWS);
      // the old numbering cannot be read without migrating it first
      await expect(t.reopen({ readonly: true })).rejects.toMatchObject({ code: 'STORE_SCHEMA_UNSUPPORTED' });
    }
    const migrated = await t.reopen();
    extra.push(migrated);
    expect(migrated.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    const rows = await t.rows('SELECT version, name FROM migrations ORDER BY version');
    expect(rows.map((r) => [Number(r[0]), r[1]])).toEqual(
      buildMigrations(backend).map((m) => [m.version, m.name]),
    );
    expect(await readAll(migrated)).toEqual(expected);
    // opening again changes nothing
    const again = await t.reopen();
    extra.push(again);
    expect(Number((await t.rows('SELECT count(*) FROM migrations'))[0]?.[0])).toBe(LATEST_SCHEMA_VERSION);
    for (let v = 8; v < 11; v++) await migrated.recordSnapshot(snapshotOf(v));
    const fresh = await openTestMirror(backend);
    try {
      for (let v = 0; v < 11; v++) await fresh.store.recordSnapshot(snapshotOf(v));
      expect(await readAll(migrated)).toEqual(await readAll(fresh.store));
    } finally {
      await fresh.dispose();
    }
    if (backend === 'postgres') {
      // the replay queue (old version 4, now 11) is still there and works
      const queue = migrated.distributed;
      expect(queue).not.toBeNull();
      expect(await queue?.readOpenReplayRuns()).toEqual([]);
    }
  });
});
