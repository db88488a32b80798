/**
 * PostgreSQL for tests: the suite's throw-away cluster (test/setup/postgres.ts) and a fresh
 * database per call. `PG_SKIP` is the reason to skip when there is no PostgreSQL — except under
 * CI=true, where `requirePg()` fails the test instead (a missing server must fail CI).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The cluster's URL, or null (see pgSkipReason). */
function pgUrl(): string | null {
  return inject('pgUrl');
}

/** Why the PostgreSQL tests are skipped here; null when they run (always null under CI=true). */
export function pgSkipReason(): string | null {
  if (pgUrl() !== null || process.env.CI === 'true') return null;
  return `PostgreSQL tests skipped: ${inject('pgMissing') ?? 'no cluster'}`;
}

/** The cluster URL; throws (failing the test) when there is none. */
function requirePg(): string {
  const url = pgUrl();
  if (url === null)
    throw new Error(`PostgreSQL is required (CI=true): ${inject('pgMissing') ?? 'no cluster'}`);
  return url;
}

/** Creates an empty database; returns its URL and a function that drops it. */
export async function createTestDatabase(prefix = 'ra'): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = requirePg();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
