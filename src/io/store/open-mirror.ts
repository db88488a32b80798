/**
 * Opening the audit mirror (docs/decisions/mirror.md): better-sqlite3 with WAL journaling,
 * synchronous=FULL (a committed snapshot survives a crash or power loss; an interrupted one is
 * rolled back by SQLite's journal on the next open), a 64 MiB page cache, foreign keys on, and the versioned migrations
 * of the one version list (./schema/versions.ts) applied in order by the one runner (./migration-runner.ts), each in its own
 * transaction. The handle carries no raw connection (./mirror-db.ts).
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../../errors/store.js';
import { requireOptionalPackage } from '../optional-package.js';
import { applyMigrations, readAppliedVersions } from './migration-runner.js';
import { type Mirror, wrapMirrorDb } from './mirror-db.js';
import { assertSchemaOpenable, buildMigrations, computeSchemaVersion } from './schema/versions.js';

export type { Mirror } from './mirror-db.js';

const TABLE = { table: 'migrations' } as const;
const MIGRATIONS = buildMigrations('sqlite');
/** the page cache of a mirror connection, in KiB (an upper bound: pages are allocated as used) */
const CACHE_KIB = 65_536;

export interface OpenMirrorOptions {
  /** open an existing mirror for reading only (no migration; fails on an outdated schema) */
  readonly readonly?: boolean;
  /** busy timeout when another process writes (default 5,000 ms) */
  readonly busyTimeoutMs?: number;
  /** clock for migrations' applied_at_ms */
  readonly now?: () => number;
}

/**
 * What opening the mirror at `path` (either backend) throws when the driver fails: StoreError
 * STORE_OPEN_FAILED, `"<path>" <said(driver message)>`; a StoreError passes through.
 */
export function toOpenFailedError(path: string, e: unknown, said: (message: string) => string): StoreError {
  if (e instanceof StoreError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new StoreError('STORE_OPEN_FAILED', `"${path}" ${said(msg)}`, { cause: e, details: { path } });
}

/** Opens (creating and migrating if needed) the mirror at `path`; throws StoreError. */
export function openMirror(path: string, options: OpenMirrorOptions = {}): Mirror {
  const readonly = options.readonly === true;
  // outside the try: a missing driver is an installation error, not an unopenable file
  const Sqlite = requireOptionalPackage<typeof Database>('better-sqlite3', 'a SQLite mirror');
  let db: Database.Database;
  try {
    db = new Sqlite(path, { readonly, fileMustExist: readonly, timeout: options.busyTimeoutMs ?? 5_000 });
  } catch (e) {
    throw toOpenFailedError(path, e, (msg) => `expected a mirror database that can be opened, got ${msg}`);
  }
  try {
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    }
    // a page cache that holds the b-tree pages one snapshot touches (default 2 MB): without it,
    // recording a snapshot re-reads its index pages from the file once the mirror outgrows the cache
    db.pragma(`cache_size = -${CACHE_KIB}`);
    db.pragma('foreign_keys = ON');
    const applied = readAppliedVersions(db, TABLE);
    assertSchemaOpenable(path, 'sqlite', applied, readonly);
    const schemaVersion = readonly
      ? computeSchemaVersion(applied)
      : applyMigrations(db, MIGRATIONS, { ...TABLE, now: options.now ?? Date.now });
    return wrapMirrorDb(db, { path, readonly, schemaVersion });
  } catch (e) {
    db.close();
    throw toOpenFailedError(path, e, (msg) => `could not be opened as a mirror: ${msg}`);
  }
}

/**
 * Runs a read of the mirror, turning a driver error (closed connection, corrupt page, foreign
 * schema) into StoreError STORE_CORRUPT; StoreErrors pass through.
 */
export function guardStore<T>(mirror: Mirror, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw guardError(mirror, what, e);
  }
}

/** The StoreError for a driver error raised while reading the mirror. */
export function guardError(mirror: Mirror, what: string, e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new StoreError('STORE_CORRUPT', `${what} on "${mirror.path}" failed: ${msg}`, { cause: e });
}
