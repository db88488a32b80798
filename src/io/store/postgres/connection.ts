/**
 * The PostgreSQL mirror's connection pool, private to src/io/store/pg (like ../mirror-db.ts for
 * SQLite): node-postgres with a small pool, BIGINT read as a JS number (every BIGINT of the schema
 * is milliseconds, microseconds since the epoch or an id: below 2^53; a larger value comes back as
 * a bigint rather than rounded), BYTEA as a Buffer, TEXT decimals as strings. A read-only handle
 * sets `default_transaction_read_only`, so the server itself refuses writes. Driver errors become
 * StoreErrors whose messages carry the URL without its password (../../http/redact-url.ts).
 */
import type pg from 'pg';
import { StoreError, type StoreErrorCode } from '../../../errors/store.js';
import { requireOptionalPackage } from '../../optional-package.js';
import { toBuffer } from '../record-snapshot.js';
import type { RowColumns } from '../row-columns.js';

export interface PgMirror {
  /** the URL without credentials */
  readonly path: string;
  readonly readonly: boolean;
  readonly pool: pg.Pool;
  readonly reads: { statements: number; rows: number };
}

const INT8_OID = 20;

function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** A pool on `url` (not yet connected). */
export function createPgPool(url: string, o: { readonly readonly: boolean; readonly max?: number }): pg.Pool {
  const driver = requireOptionalPackage<typeof pg>('pg', 'a PostgreSQL mirror');
  const pool = new driver.Pool({
    connectionString: url,
    max: o.max ?? 4,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 10_000,
    application_name: 'reserve-audit',
    ...(o.readonly ? { options: '-c default_transaction_read_only=on' } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? parseInt8
          : driver.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // an idle client whose server went away must not crash the process
  pool.on('error', () => {});
  return pool;
}

/** The StoreError for a driver error (StoreErrors pass through). */
export function toStoreError(
  h: { readonly path: string },
  code: StoreErrorCode,
  what: string,
  e: unknown,
): StoreError {
  if (e instanceof StoreError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new StoreError(code, `${what} on "${h.path}" failed: ${msg}`, { cause: e });
}

/** Rows as arrays (column order of the SELECT). */
export async function queryRows(
  c: pg.Pool | pg.PoolClient,
  text: string,
  values: readonly unknown[] = [],
): Promise<unknown[][]> {
  const r = await c.query({ text, values: values as unknown[], rowMode: 'array' });
  return r.rows as unknown[][];
}

/** The first column of the first row, or undefined. */
export async function queryValue(
  c: pg.Pool | pg.PoolClient,
  text: string,
  values: readonly unknown[] = [],
): Promise<unknown> {
  const rows = await queryRows(c, text, values);
  return rows[0]?.[0];
}

/** Runs a read, turning a driver error into StoreError STORE_CORRUPT. */
export async function guardPg<T>(h: PgMirror, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', what, e);
  }
}

/**
 * Runs `fn` in one transaction on one client of the pool: COMMIT when it returns, ROLLBACK when
 * it throws (a broken connection is discarded, never returned to the pool).
 */
export async function withPgTransaction<T>(
  h: PgMirror,
  begin: string,
  fn: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const c = await h.pool.connect();
  let broken: Error | undefined;
  try {
    await c.query(begin);
    const r = await fn(c);
    await c.query('COMMIT');
    return r;
  } catch (e) {
    try {
      await c.query('ROLLBACK');
    } catch (e2) {
      broken = e2 instanceof Error ? e2 : new Error(String(e2));
    }
    throw e;
  } finally {
    c.release(broken);
  }
}

/**
 * Runs `write` in ONE transaction of a writable mirror, first taking the mirror's advisory write lock
 * when `locked` (the writes that must commit one after another: snapshots, prunes). A read-only
 * handle is refused; a failure rolls back and becomes StoreError STORE_WRITE_FAILED
 * `<what> on "<path>" failed: …` (a StoreError passes through).
 */
export async function writePgMirror<T>(
  h: PgMirror,
  what: string,
  locked: 'locked' | 'unlocked',
  write: (c: pg.PoolClient) => Promise<T>,
): Promise<T> {
  if (h.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${h.path}" was opened read-only`);
  try {
    return await withPgTransaction(h, 'BEGIN', async (c) => {
      if (locked === 'locked') await c.query('SELECT pg_advisory_xact_lock($1)', [MIRROR_WRITE_LOCK]);
      return await write(c);
    });
  } catch (e) {
    throw toStoreError(h, 'STORE_WRITE_FAILED', what, e);
  }
}

/** Counts one statement that returned `rows` rows (the history reads, as for SQLite). */
export function countPgRead(h: PgMirror, rows: number): void {
  h.reads.statements += 1;
  h.reads.rows += rows;
}

/**
 * The advisory lock key that serialises the writers of one mirror database (snapshots, audit
 * runs, pruning, migrations): ASCII "RAMIRROR" as a 64-bit integer.
 */
export const MIRROR_WRITE_LOCK = '5927129417318486610';

/**
 * Inserts `rows` into the table of `spec` as one statement, each column sent as an array
 * (`unnest`; bigints as decimal text); `suffix` follows (ON CONFLICT, RETURNING). Returns the rows
 * it returned.
 */
export async function insertPgRows<R extends object>(
  c: pg.Pool | pg.PoolClient,
  spec: RowColumns,
  rows: readonly R[],
  suffix = '',
): Promise<unknown[][]> {
  if (rows.length === 0) return [];
  const values = rows.map((r) => spec.values(r));
  const send = (v: unknown): unknown =>
    typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? toBuffer(v) : v;
  return await queryRows(
    c,
    `INSERT INTO ${spec.table} (${spec.columns.map((col) => col[0]).join(', ')})
     SELECT * FROM unnest(${spec.columns.map((col, i) => `$${i + 1}::${col[1]}[]`).join(', ')}) ${suffix}`,
    spec.columns.map((_col, i) => values.map((v) => send(v[i]))),
  );
}
