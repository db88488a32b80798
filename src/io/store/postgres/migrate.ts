/**
 * Migrating a PostgreSQL mirror (docs/mirror.md "The mirror schema"): the PostgreSQL DDL of the
 * one version list (../schema/versions.ts), each pending version in its own transaction, under the
 * mirror's advisory lock so two processes opening a fresh database at once do not both migrate
 * it. A mirror numbered before the one list is renumbered first (../schema/legacy-postgres.ts).
 */
import type pg from 'pg';
import { computePendingMigrations } from '../migration-runner.js';
import { LEGACY_POSTGRES_PROBE_SQL, LEGACY_POSTGRES_RENUMBER_SQL } from '../schema/legacy-postgres.js';
import { buildMigrations } from '../schema/versions.js';
import { MIRROR_WRITE_LOCK, queryRows, queryValue } from './connection.js';

const PG_MIGRATIONS = buildMigrations('postgres');

/** The applied versions (none when the `migrations` table does not exist yet). */
export async function readPgAppliedVersions(c: pg.Pool | pg.PoolClient): Promise<Set<number>> {
  const exists = await queryValue(c, "SELECT to_regclass('migrations') IS NOT NULL");
  if (exists !== true) return new Set();
  return new Set((await queryRows(c, 'SELECT version FROM migrations')).map((r) => Number(r[0])));
}

async function inTransaction(c: pg.PoolClient, fn: () => Promise<void>): Promise<void> {
  await c.query('BEGIN');
  try {
    await fn();
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK');
    throw e;
  }
}

/** Applies the pending migrations in order, each in one transaction; returns the highest version applied. */
export async function applyPgMigrations(c: pg.PoolClient, now: () => number): Promise<number> {
  await c.query('SELECT pg_advisory_lock($1)', [MIRROR_WRITE_LOCK]);
  try {
    await c.query(
      'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)',
    );
    if ((await queryRows(c, LEGACY_POSTGRES_PROBE_SQL)).length > 0)
      await inTransaction(c, async () => {
        for (const sql of LEGACY_POSTGRES_RENUMBER_SQL) await c.query(sql);
      });
    const applied = await readPgAppliedVersions(c);
    for (const m of computePendingMigrations(PG_MIGRATIONS, applied)) {
      await inTransaction(c, async () => {
        for (const sql of m.statements) await c.query(sql);
        await c.query('INSERT INTO migrations (version, name, applied_at_ms) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          now(),
        ]);
      });
      applied.add(m.version);
    }
    return Math.max(0, ...applied);
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [MIRROR_WRITE_LOCK]);
  }
}
