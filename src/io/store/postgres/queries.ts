/**
 * Reading a PostgreSQL mirror — the same reads, orders and row types as ../queries.ts and
 * ../lookups.ts (SQLite): pool histories, latest observations, the history-check input (newest N
 * per pool through a window function, joined with the contracts), counts, snapshot rows, stored
 * bodies, and the small lookups of the pipelines. Each function takes a pool or, inside a
 * transaction, its client; the row mappers are the SQLite backend's, so both return the same values.
 */
import type pg from 'pg';
import type { HistoryQuery } from '../queries.js';
import {
  OBS_COLUMNS,
  toHistoryObservation,
  toObservation,
  toRangeBounds,
  toSnapshotRow,
} from '../queries.js';
import { buildTemplateSql } from '../template-keys.js';
import type {
  HistoryObservation,
  MirrorSnapshotRow,
  MirrorVerificationStatus,
  PoolObservation,
} from '../types.js';
import { countPgRead, type PgMirror, queryRows, queryValue } from './connection.js';

export type Queryable = pg.Pool | pg.PoolClient;

/** Every observation of one pool, oldest first (optionally only the newest `limit`). */
export async function readPgPoolHistory(
  q: Queryable,
  poolId: string,
  options: { readonly limit?: number } = {},
): Promise<PoolObservation[]> {
  const r = await q.query(
    `SELECT * FROM (SELECT ${OBS_COLUMNS} FROM observations o WHERE o.pool_id = $1
       ORDER BY o.observed_at_ms DESC, o.snapshot_id DESC LIMIT $2) newest ORDER BY observed_at_ms, snapshot_id`,
    [poolId, options.limit ?? null],
  );
  return r.rows.map(toObservation);
}

/** The most recent observation of every pool, by pool id. */
export async function readPgLatestObservations(h: PgMirror, q: Queryable): Promise<PoolObservation[]> {
  const r = await q.query(
    `SELECT ${OBS_COLUMNS} FROM observations o
     JOIN (SELECT pool_id, max(snapshot_id) AS sid FROM observations GROUP BY pool_id) l
       ON o.pool_id = l.pool_id AND o.snapshot_id = l.sid
     ORDER BY o.pool_id`,
  );
  countPgRead(h, r.rows.length);
  return r.rows.map(toObservation);
}

/** Observations joined with their contracts, grouped by pool, oldest first (see ../queries.ts). */
export async function readPgObservationsForHistoryChecks(
  h: PgMirror,
  q: Queryable,
  query: HistoryQuery = {},
): Promise<Map<string, HistoryObservation[]>> {
  const limit = query.limitPerPool ?? 1_000;
  const bounded = limit < Number.MAX_SAFE_INTEGER;
  const params: unknown[] = [query.sinceMs ?? Number.MIN_SAFE_INTEGER];
  let where = 'o.observed_at_ms >= $1';
  if (query.poolIds !== undefined) {
    params.push([...query.poolIds]);
    where += ` AND o.pool_id = ANY($${params.length}::text[])`;
  }
  let source = 'observations o';
  if (bounded) {
    source = `(SELECT o.*, row_number() OVER (PARTITION BY pool_id ORDER BY observed_at_ms DESC, snapshot_id DESC) AS rn
               FROM observations o WHERE ${where}) o`;
    params.push(limit);
    where = `o.rn <= $${params.length}`;
  }
  const rows = await queryRows(
    q,
    `SELECT ${OBS_COLUMNS}, c.verification_status, c.verification_reason, c.reserve_a, c.reserve_b, c.total_lp_supply,
            c.created_at_ms, c.created_at_micros, c.fields_source,
            ${buildTemplateSql()}
     FROM ${source} LEFT JOIN contracts c ON c.ckey = o.contract_key
     WHERE ${where}
     ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id`,
    params,
  );
  const out = new Map<string, HistoryObservation[]>();
  for (const id of query.poolIds ?? []) out.set(id, []);
  for (const r of rows) {
    const o = toHistoryObservation(r);
    const list = out.get(o.poolId);
    if (list === undefined) out.set(o.poolId, [o]);
    else list.push(o);
  }
  countPgRead(h, rows.length);
  return out;
}

/** Number of reserve contracts (optionally with one status, or created in a range). */
export async function countPgContracts(
  q: Queryable,
  options: {
    readonly status?: MirrorVerificationStatus;
    readonly fromMs?: number;
    readonly toMs?: number;
  } = {},
): Promise<number> {
  const [from, to] = toRangeBounds(options);
  const v =
    options.status === undefined
      ? await queryValue(
          q,
          'SELECT count(*) FROM contracts WHERE created_at_ms >= $1 AND created_at_ms < $2',
          [from, to],
        )
      : await queryValue(
          q,
          'SELECT count(*) FROM contracts WHERE verification_status = $1 AND created_at_ms >= $2 AND created_at_ms < $3',
          [options.status, from, to],
        );
  return Number(v ?? 0);
}

/** Number of snapshots recorded. */
export async function countPgSnapshots(q: Queryable): Promise<number> {
  return Number((await queryValue(q, 'SELECT count(*) FROM snapshots')) ?? 0);
}

/** Snapshot rows, newest first. */
export async function readPgSnapshots(
  q: Queryable,
  options: { readonly limit?: number } = {},
): Promise<MirrorSnapshotRow[]> {
  const r = await q.query('SELECT * FROM snapshots ORDER BY id DESC LIMIT $1', [options.limit ?? null]);
  return r.rows.map(toSnapshotRow);
}

/** The stored bytes of a response body, or null. */
export async function readPgResponseBody(q: Queryable, sha256: string): Promise<Uint8Array | null> {
  const v = await queryValue(q, 'SELECT body FROM bodies WHERE sha256 = $1', [sha256]);
  return v instanceof Uint8Array ? v : null;
}

/** One column of the contract rows of `contractIds` the mirror holds, by contract ID. */
async function readPgContractColumn(
  q: Queryable,
  column: 'pool_id' | 'verification_status',
  contractIds: readonly string[],
): Promise<unknown[][]> {
  return queryRows(q, `SELECT contract_id, ${column} FROM contracts WHERE contract_id = ANY($1::text[])`, [
    [...contractIds],
  ]);
}

/** The pool id of each of `contractIds` the mirror holds. */
export async function readPgContractPools(
  h: PgMirror,
  q: Queryable,
  contractIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await readPgContractColumn(q, 'pool_id', contractIds);
  countPgRead(h, rows.length);
  return new Map(rows.map((r) => [String(r[0]), String(r[1])]));
}

/** The stored verification status of each of `contractIds` the mirror holds. */
export async function readPgVerificationStatuses(
  q: Queryable,
  contractIds: readonly string[],
): Promise<Map<string, MirrorVerificationStatus>> {
  const rows = await readPgContractColumn(q, 'verification_status', contractIds);
  return new Map(rows.map((r) => [String(r[0]), r[1] as MirrorVerificationStatus]));
}
