/**
 * Opens the reference server's SQLite ledger database (better-sqlite3): WAL journal,
 * foreign keys on, and the versioned migrations of ./migrations.ts applied in one transaction
 * each by the one migration runner of src/io/store (`schema_migrations` records them). A database
 * written by a newer schema is refused.
 * Default path `./.reserve-audit/server.db` (parent directory created); `:memory:` for tests.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { ServerError } from '../../errors/server.js';
import { requireOptionalPackage } from '../../io/optional-package.js';
import {
  applyMigrations,
  computeLatestVersion,
  readAppliedVersion,
} from '../../io/store/migration-runner.js';
import { MIGRATIONS, type Migration } from './migrations.js';

const TABLE = { table: 'schema_migrations', strict: true } as const;

export type ServerDb = Database.Database;

const DEFAULT_SERVER_DB_PATH = './.reserve-audit/server.db';

export interface OpenServerDbOptions {
  /** override the migration list (tests of the migration runner) */
  readonly migrations?: readonly Migration[];
}

/** Opens (creating as needed) and migrates the ledger database at `path`. */
export function openServerDb(
  path: string = DEFAULT_SERVER_DB_PATH,
  options: OpenServerDbOptions = {},
): ServerDb {
  const Sqlite = requireOptionalPackage<typeof Database>('better-sqlite3', "the reference server's ledger");
  let db: ServerDb;
  try {
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    db = new Sqlite(path);
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
  return readAppliedVersion(db, TABLE);
}

function migrateServerDb(db: ServerDb, migrations: readonly Migration[]): void {
  const current = readSchemaVersion(db);
  const known = computeLatestVersion(migrations);
  if (current > known) {
    throw new ServerError(
      'DB_OPEN_FAILED',
      `"schema_migrations" expected version <= ${known} (this build), got ${current}; the database is from a newer reserve-audit`,
    );
  }
  applyMigrations(db, migrations, { ...TABLE, now: Date.now });
}
