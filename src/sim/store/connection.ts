/**
 * Opens the reference server's SQLite ledger database (better-sqlite3): WAL journal,
 * foreign keys on, and the versioned migrations of ./migrations.ts applied in one transaction
 * each (`schema_migrations` records them). A database written by a newer schema is refused.
 * Default path `./.reserve-audit/server.db` (parent directory created); `:memory:` for tests.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ServerError } from '../../errors/server.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export type ServerDb = Database.Database;

export const DEFAULT_SERVER_DB_PATH = './.reserve-audit/server.db';

export interface OpenServerDbOptions {
  /** override the migration list (tests of the migration runner) */
  readonly migrations?: readonly Migration[];
}

/** Opens (creating as needed) and migrates the ledger database at `path`. */
export function openServerDb(
  path: string = DEFAULT_SERVER_DB_PATH,
  options: OpenServerDbOptions = {},
): ServerDb {
  let db: ServerDb;
  try {
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
  } catch (cause) {
    throw new ServerError(
      'DB_OPEN_FAILED',
      `"db" expected an openable SQLite path, got ${JSON.stringify(path)}`,
      {
        cause,
      },
    );
  }
  try {
    if (path !== ':memory:' && path !== '') db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    migrateServerDb(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (cause) {
    db.close();
    if (cause instanceof ServerError) throw cause;
    throw new ServerError('DB_OPEN_FAILED', `"db" could not be migrated at ${JSON.stringify(path)}`, {
      cause,
    });
  }
}

/** The highest applied migration version (0 for an empty database). */
export function readSchemaVersion(db: ServerDb): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

function migrateServerDb(db: ServerDb, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at_ms INTEGER NOT NULL
  ) STRICT`);
  const current = readSchemaVersion(db);
  const known = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  if (current > known) {
    throw new ServerError(
      'DB_OPEN_FAILED',
      `"schema_migrations" expected version <= ${known} (this build), got ${current}; the database is from a newer reserve-audit`,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
  }
}
