/**
 * The two mirror backends for parameterised store tests (not a test file): each opens a fresh,
 * empty mirror — a SQLite file in a temporary directory, or a new database in the suite's
 * throw-away PostgreSQL cluster (test/setup/postgres.ts) — as a MirrorStore, plus raw SQL for the
 * assertions a test makes about rows (`count`, `exec`). `describeBackends` runs a suite once per
 * backend; the PostgreSQL run is skipped, saying why, when there is no PostgreSQL (never under CI=true).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, it } from 'vitest';
import {
  LATEST_SCHEMA_VERSION,
  type MirrorStore,
  openMirror,
  openMirrorStore,
} from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { wrapSqliteMirror } from '../../src/io/store/sqlite-store.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';

export type BackendName = 'sqlite' | 'postgres';

/** The schema version a freshly migrated mirror of `backend` has (one version list: the same for both). */
export function latestSchemaVersion(_backend: BackendName): number {
  return LATEST_SCHEMA_VERSION;
}

export interface TestMirror {
  readonly backend: BackendName;
  /** the target openMirrorStore takes (file path or URL) */
  readonly target: string;
  readonly store: MirrorStore;
  /** rows of a table */
  count(table: string): Promise<number>;
  /** the rows of one raw query (no parameters), as arrays */
  rows(sql: string): Promise<unknown[][]>;
  /** one raw statement (no parameters), e.g. an UPDATE a test needs */
  exec(sql: string): Promise<void>;
  /** opens another store on the same mirror */
  reopen(options?: { readonly readonly?: boolean }): Promise<MirrorStore>;
  /** closes everything and deletes the mirror */
  dispose(): Promise<void>;
}

/** A fresh, empty mirror on `backend`. */
export async function openTestMirror(backend: BackendName): Promise<TestMirror> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ra-store-'));
    const target = join(dir, 'mirror.db');
    const raw = openMirror(target);
    const store = wrapSqliteMirror(raw);
    const extra: MirrorStore[] = [];
    return {
      backend,
      target,
      store,
      count: async (table) => Number(mirrorDb(raw).prepare(`SELECT count(*) FROM ${table}`).pluck().get()),
      rows: async (sql) => mirrorDb(raw).prepare(sql).raw(true).all() as unknown[][],
      exec: async (sql) => {
        mirrorDb(raw).exec(sql);
      },
      reopen: async (o) => {
        const s = await openMirrorStore(target, o ?? {});
        extra.push(s);
        return s;
      },
      dispose: async () => {
        for (const s of extra) await s.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await createTestDatabase();
  const store = await openMirrorStore(db.url);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const extra: MirrorStore[] = [];
  return {
    backend,
    target: db.url,
    store,
    count: async (table) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n),
    rows: async (sql) => (await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][],
    exec: async (sql) => {
      await client.query(sql);
    },
    reopen: async (o) => {
      const s = await openMirrorStore(db.url, o ?? {});
      extra.push(s);
      return s;
    },
    dispose: async () => {
      for (const s of extra) await s.close();
      await store.close();
      await client.end();
      await db.drop();
    },
  };
}

/** Runs `suite` once per backend (PostgreSQL skipped, with the reason as a test name, when absent). */
export function describeBackends(title: string, suite: (backend: BackendName) => void): void {
  for (const backend of ['sqlite', 'postgres'] as const) {
    const skip = backend === 'postgres' ? pgSkipReason() : null;
    if (skip !== null) {
      describe(`${title} [${backend}]`, () => {
        it.skip(skip, () => {});
      });
      continue;
    }
    describe(`${title} [${backend}]`, () => suite(backend));
  }
}
