/**
 * THE migration runner of every SQLite database of reserve-audit (the audit mirror, and the
 * simulated ledger of src/sim/store): an ordered list of versioned migrations, each applied once
 * inside one immediate transaction and recorded in a bookkeeping table (version, name,
 * applied_at_ms). Migrations are append-only: a released one is never edited or renumbered.
 * What to do with a database written by a newer build is the caller's policy (readAppliedVersion
 * first, then refuse with its own typed error).
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../../errors/store.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** SQL statements (one may hold several, separated by semicolons) */
  readonly statements: readonly string[];
  /**
   * rebuilds a table other tables reference (SQLite's documented procedure): foreign keys are
   * switched off around the transaction and `foreign_key_check` must find nothing before COMMIT
   */
  readonly rebuildsReferencedTable?: boolean;
}

export interface MigrationTable {
  /** the bookkeeping table, e.g. "migrations" */
  readonly table: string;
  /** create it as a STRICT table */
  readonly strict?: boolean;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

function tableName(t: MigrationTable): string {
  if (!IDENT.test(t.table))
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `"table" expected an SQL identifier, got ${JSON.stringify(t.table)}`,
    );
  return t.table;
}

/** The highest version in a migration list (0 for none). */
export function computeLatestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((m, x) => Math.max(m, x.version), 0);
}

/** The highest applied version (0 when the bookkeeping table does not exist yet). */
export function readAppliedVersion(db: Database.Database, t: MigrationTable): number {
  const table = tableName(t);
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (exists === undefined) return 0;
  const row = db.prepare(`SELECT max(version) AS v FROM ${table}`).get() as { v: number | null } | undefined;
  return row?.v ?? 0;
}

/** The migrations not yet applied, in version order. */
export function computePendingMigrations(
  migrations: readonly Migration[],
  applied: ReadonlySet<number>,
): Migration[] {
  return migrations.filter((m) => !applied.has(m.version)).sort((a, b) => a.version - b.version);
}

/** Whether nothing is pending but versions without statements (a read-only open needs no more). */
export function isSchemaCurrent(migrations: readonly Migration[], applied: ReadonlySet<number>): boolean {
  return computePendingMigrations(migrations, applied).every((m) => m.statements.length === 0);
}

/** The applied versions (none when the bookkeeping table does not exist yet). */
export function readAppliedVersions(db: Database.Database, t: MigrationTable): Set<number> {
  if (readAppliedVersion(db, t) === 0) return new Set();
  return new Set(
    db
      .prepare(`SELECT version FROM ${tableName(t)}`)
      .pluck()
      .all() as number[],
  );
}

/** Applies the pending migrations in version order; returns the highest version applied. */
export function applyMigrations(
  db: Database.Database,
  migrations: readonly Migration[],
  t: MigrationTable & { readonly now: () => number },
): number {
  const table = tableName(t);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)${t.strict === true ? ' STRICT' : ''}`,
  );
  const applied = readAppliedVersions(db, t);
  const record = db.prepare(`INSERT INTO ${table} (version, name, applied_at_ms) VALUES (?, ?, ?)`);
  for (const m of computePendingMigrations(migrations, applied)) {
    const fkOn = m.rebuildsReferencedTable === true && db.pragma('foreign_keys', { simple: true }) === 1;
    if (fkOn) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        for (const sql of m.statements) db.exec(sql);
        if (m.rebuildsReferencedTable === true) {
          const bad = db.pragma('foreign_key_check') as unknown[];
          if (bad.length > 0)
            throw new StoreError(
              'STORE_CORRUPT',
              `migration ${m.version} expected no foreign key violations, got ${bad.length} (${JSON.stringify(bad[0])})`,
            );
        }
        record.run(m.version, m.name, t.now());
      }).immediate();
    } finally {
      if (fkOn) db.pragma('foreign_keys = ON');
    }
    applied.add(m.version);
  }
  return Math.max(0, ...applied);
}
