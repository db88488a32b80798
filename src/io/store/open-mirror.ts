/**
 * Opening the audit mirror (docs/decisions/mirror.md): better-sqlite3 with WAL journaling,
 * synchronous=FULL (a committed snapshot survives a crash or power loss; an interrupted one is
 * rolled back by SQLite's journal on the next open), foreign keys on, and the versioned migrations
 * of ./migrations applied in order, each in its own transaction.
 */
import Database from 'better-sqlite3';
import { StoreError } from '../../errors/store.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations/index.js';

export interface Mirror {
  readonly path: string;
  readonly readonly: boolean;
  /** the underlying connection (for callers that need a custom query; prefer the functions) */
  readonly db: Database.Database;
  readonly schemaVersion: number;
  close(): void;
}

export interface OpenMirrorOptions {
  /** open an existing mirror for reading only (no migration; fails on an outdated schema) */
  readonly readonly?: boolean;
  /** busy timeout when another process writes (default 5,000 ms) */
  readonly busyTimeoutMs?: number;
  /** clock for migrations' applied_at_ms */
  readonly now?: () => number;
}

function currentVersion(db: Database.Database): number {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get();
  if (has === undefined) return 0;
  const row = db.prepare('SELECT max(version) AS v FROM migrations').get() as
    | { v: number | null }
    | undefined;
  return row?.v ?? 0;
}

function migrate(db: Database.Database, now: () => number): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)',
  );
  let version = currentVersion(db);
  for (const m of MIGRATIONS) {
    if (m.version <= version) continue;
    const apply = db.transaction(() => {
      for (const sql of m.statements) db.exec(sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at_ms) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        now(),
      );
    });
    apply.immediate();
    version = m.version;
  }
  return version;
}

/** Opens (creating and migrating if needed) the mirror at `path`; throws StoreError. */
export function openMirror(path: string, options: OpenMirrorOptions = {}): Mirror {
  const readonly = options.readonly === true;
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly, timeout: options.busyTimeoutMs ?? 5_000 });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `"${path}" expected a mirror database that can be opened, got ${msg}`,
      {
        cause: e,
        details: { path },
      },
    );
  }
  try {
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    const found = currentVersion(db);
    if (found > LATEST_SCHEMA_VERSION) {
      throw new StoreError(
        'STORE_SCHEMA_UNSUPPORTED',
        `"${path}" expected a mirror schema version ≤ ${LATEST_SCHEMA_VERSION}, got ${found} (written by a newer reserve-audit)`,
      );
    }
    let schemaVersion = found;
    if (readonly) {
      if (found < LATEST_SCHEMA_VERSION) {
        throw new StoreError(
          'STORE_SCHEMA_UNSUPPORTED',
          `"${path}" expected mirror schema version ${LATEST_SCHEMA_VERSION}, got ${found} (open it once read-write to migrate)`,
        );
      }
    } else {
      schemaVersion = migrate(db, options.now ?? Date.now);
    }
    return {
      path,
      readonly,
      db,
      schemaVersion,
      close: () => {
        if (db.open) db.close();
      },
    };
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError('STORE_OPEN_FAILED', `"${path}" could not be opened as a mirror: ${msg}`, {
      cause: e,
      details: { path },
    });
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
