/**
 * The incremental history of a PostgreSQL mirror: the PostgreSQL applier of
 * ../plan/history-plan.ts, the same folds, rows and rules as ../sqlite/apply-history.ts
 * (docs/mirror.md "Incremental history"), each read done for all pools of a snapshot at once,
 * since every statement is a round trip to the server. `updatePgHistoryState` runs in the
 * snapshot's transaction, under the mirror's write lock; `readPgHistoryPast` reads O(pools) rows.
 */

import type { HistoryPoint } from '../../../core/audit/index.js';
import {
  buildNewPointsSql,
  buildPoolContractsUpsertSql,
  HISTORY_COLUMNS,
  POINT_COLUMNS,
  POINT_FROM,
  POOL_HISTORY_COLUMNS,
  POOL_HISTORY_UPSERT,
} from '../history-sql.js';
import {
  computeFirstPointKeys,
  computeHistoryPast,
  computeHistoryPlan,
  computeProvenBetweenQueries,
  computeRefoldRows,
  foldOfRow,
  type HistoryPast,
  type PointKey,
  type PoolHistoryRow,
  pointKey,
  pointOfRow,
} from '../plan/history-plan.js';
import { countPgRead, insertPgRows, type PgMirror, queryRows, queryValue } from './connection.js';
import { type Queryable, readPgObservationsForHistoryChecks } from './queries.js';

async function writePoolHistories(
  q: Queryable,
  rows: readonly (readonly [string, PoolHistoryRow])[],
): Promise<void> {
  await insertPgRows(q, POOL_HISTORY_COLUMNS, rows, POOL_HISTORY_UPSERT);
}

/** Re-folds the given pools (all pools when undefined) from their whole series. */
async function refoldPools(h: PgMirror, q: Queryable, poolIds: readonly string[] | undefined): Promise<void> {
  if (poolIds !== undefined && poolIds.length === 0) return;
  if (poolIds === undefined) await q.query('DELETE FROM pool_history');
  const series = await readPgObservationsForHistoryChecks(h, q, {
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...(poolIds === undefined ? {} : { poolIds }),
  });
  await writePoolHistories(q, computeRefoldRows(series));
}

/** The first points of (pool, contract) pairs by pointKey. */
async function readFirstPoints(q: Queryable, keys: readonly PointKey[]): Promise<Map<string, HistoryPoint>> {
  const out = new Map<string, HistoryPoint>();
  if (keys.length === 0) return out;
  const rows = await queryRows(
    q,
    `SELECT pc.pool_id, ${POINT_COLUMNS} FROM ${POINT_FROM}
     JOIN unnest($1::text[], $2::text[]) AS k (pool_id, contract_id)
       ON pc.pool_id = k.pool_id AND c.contract_id = k.contract_id`,
    [keys.map((p) => p[0]), keys.map((p) => p[1])],
  );
  for (const r of rows) out.set(pointKey(String(r[0]), String(r[1])), pointOfRow(r.slice(1)));
  return out;
}

/**
 * Brings the incremental history up to date with snapshot `snapshotId`, whose observations were
 * just inserted (inside recordPgSnapshot's transaction, under the write lock).
 */
export async function updatePgHistoryState(
  h: PgMirror,
  q: Queryable,
  snapshotId: number,
  changedContracts: readonly string[],
): Promise<void> {
  const through = Number(await queryValue(q, 'SELECT through_snapshot_id FROM history_state WHERE id = 1'));
  const previous = Number(
    await queryValue(q, 'SELECT coalesce(max(id), 0) FROM snapshots WHERE id < $1', [snapshotId]),
  );
  const refold = new Set<string>();
  if (through === previous) {
    const obs = await queryRows(q, buildNewPointsSql('$1'), [snapshotId]);
    const folds = new Map<string, PoolHistoryRow>();
    for (const r of await queryRows(
      q,
      `SELECT ${HISTORY_COLUMNS} FROM pool_history WHERE pool_id = ANY($1::text[])`,
      [obs.map((r) => r[0])],
    ))
      folds.set(String(r[0]), foldOfRow(r));
    const input = {
      snapshotId,
      obs,
      folds,
      firstPoints: await readFirstPoints(q, computeFirstPointKeys(obs, folds)),
      archivedThroughMs: null,
    };
    // the last proven first point of another contract of the pool observed in (after, before]
    const between = new Map<string, HistoryPoint | null>();
    for (const b of computeProvenBetweenQueries(input)) {
      const rows = await queryRows(
        q,
        `SELECT ${POINT_COLUMNS} FROM observations o
         JOIN pool_contracts pc ON pc.pool_id = o.pool_id AND pc.contract_key = o.contract_key
           AND pc.first_snapshot_id = o.snapshot_id
         JOIN contracts c ON c.ckey = pc.contract_key
         WHERE o.pool_id = $1 AND o.observed_at_ms > $2 AND o.observed_at_ms <= $3 AND c.contract_id <> $4
           AND c.verification_status = 'verified' AND c.fields_source = 'blob'
         ORDER BY o.observed_at_ms DESC, o.snapshot_id DESC LIMIT 1`,
        [b.poolId, b.afterMs, b.beforeMs, b.contractId],
      );
      between.set(b.poolId, rows[0] === undefined ? null : pointOfRow(rows[0]));
    }
    const plan = computeHistoryPlan(input, between);
    await writePoolHistories(q, plan.writes);
    for (const p of plan.refold) refold.add(p);
  }
  await q.query(buildPoolContractsUpsertSql('$1', false), [snapshotId]);
  if (through !== previous) await refoldPools(h, q, undefined);
  else {
    if (changedContracts.length > 0) {
      const pools = await queryRows(
        q,
        `SELECT DISTINCT pc.pool_id FROM pool_contracts pc JOIN contracts c ON c.ckey = pc.contract_key
         WHERE c.contract_id = ANY($1::text[])`,
        [[...changedContracts]],
      );
      for (const p of pools) refold.add(String(p[0]));
    }
    await refoldPools(h, q, [...refold]);
  }
  await q.query('UPDATE history_state SET through_snapshot_id = $1 WHERE id = 1', [snapshotId]);
}

/** What an audit reads of the past (as ../sqlite/apply-history.ts `readHistoryPast`); null when not current. */
export async function readPgHistoryPast(
  h: PgMirror,
  q: Queryable,
  current: ReadonlyMap<string, string>,
  horizonMs: number,
): Promise<HistoryPast | null> {
  const state = (
    await queryRows(
      q,
      'SELECT h.through_snapshot_id, (SELECT coalesce(max(id), 0) FROM snapshots) FROM history_state h WHERE h.id = 1',
    )
  )[0];
  countPgRead(h, 1);
  if (state === undefined || Number(state[0]) !== Number(state[1])) return null;
  const rows = await queryRows(q, `SELECT ${HISTORY_COLUMNS} FROM pool_history`);
  countPgRead(h, rows.length);
  const poolIds = [...current.keys()];
  const firstPoints = await readFirstPoints(q, [...current]);
  countPgRead(h, firstPoints.size);
  const recent = await queryRows(
    q,
    `SELECT pc.pool_id, ${POINT_COLUMNS}, pc.first_snapshot_id FROM ${POINT_FROM}
     WHERE pc.pool_id = ANY($1::text[]) AND pc.first_ledger_created_at_ms >= $2`,
    [poolIds, horizonMs],
  );
  const before = await queryRows(
    q,
    `SELECT * FROM (
       SELECT pc.pool_id, ${POINT_COLUMNS}, pc.first_snapshot_id, row_number() OVER (PARTITION BY pc.pool_id
         ORDER BY pc.first_ledger_created_at_ms DESC, pc.first_observed_at_ms DESC, pc.first_snapshot_id DESC) AS rn
       FROM ${POINT_FROM}
       WHERE pc.pool_id = ANY($1::text[]) AND pc.first_ledger_created_at_ms < $2
         AND c.verification_status = 'verified' AND c.fields_source = 'blob') b
     WHERE rn <= 2`,
    [poolIds, horizonMs],
  );
  countPgRead(h, recent.length + before.length);
  const timelines = new Map<string, unknown[][]>();
  for (const r of [...before, ...recent]) {
    const list = timelines.get(String(r[0])) ?? [];
    list.push(r.slice(1));
    timelines.set(String(r[0]), list);
  }
  return computeHistoryPast(rows, current, firstPoints, timelines);
}
