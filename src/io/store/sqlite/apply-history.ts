/**
 * The incremental history of a SQLite mirror (schema 3, docs/mirror.md "Incremental history"):
 * the SQLite applier of ../plan/history-plan.ts. `updateHistoryState` runs inside recordSnapshot's
 * transaction: it reads the folds and first points the plan needs, writes the pool_history rows it
 * gives, re-folds the pools it names (all of them when the folds were not current: a mirror just
 * migrated), adds the snapshot's first points to pool_contracts and settles what falls out of the
 * horizon (../settled-contracts.ts). `readHistoryPast` is what an audit reads: O(pools) rows,
 * whatever the mirror's length.
 */

import type { HistoryPoint } from '../../../core/audit/index.js';
import { findArchivedContractIds, readArchivedThroughMs } from '../archive.js';
import {
  buildNewPointsSql,
  buildPoolContractsUpsertSql,
  HISTORY_COLUMNS,
  POINT_COLUMNS,
  POINT_FROM,
  POOL_HISTORY_COLUMNS,
  POOL_HISTORY_UPSERT,
} from '../history-sql.js';
import { countMirrorRead, insertRows, mirrorDb } from '../mirror-db.js';
import { guardStore, type Mirror } from '../open-mirror.js';
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
import { readObservationsForHistoryChecks } from '../queries.js';
import { OBSERVATION_PERIOD_SHIFT, OBSERVATION_PERIOD_SQL } from '../schema/008-appended-raw-bodies.js';
import { isHorizonUnsettled, settlePoolContracts, unsettlePoolContracts } from '../settled-contracts.js';

type Db = ReturnType<typeof mirrorDb>;

function writePoolHistories(db: Db, rows: readonly (readonly [string, PoolHistoryRow])[]): void {
  insertRows(db, POOL_HISTORY_COLUMNS, rows, POOL_HISTORY_UPSERT);
}

/** Re-folds the given pools (all pools when undefined) from their whole series. */
function refoldPools(mirror: Mirror, poolIds: readonly string[] | undefined): void {
  if (poolIds !== undefined && poolIds.length === 0) return;
  const db = mirrorDb(mirror);
  if (poolIds === undefined) db.prepare('DELETE FROM pool_history').run();
  const series = readObservationsForHistoryChecks(mirror, {
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...(poolIds === undefined ? {} : { poolIds }),
  });
  writePoolHistories(db, computeRefoldRows(series));
}

/** The first points of (pool, contract) pairs by pointKey. */
function readFirstPoints(db: Db, keys: readonly PointKey[]): Map<string, HistoryPoint> {
  const get = db
    .prepare(
      `SELECT ${POINT_COLUMNS} FROM ${POINT_FROM}
       WHERE pc.pool_id = ? AND pc.contract_key = (SELECT k.ckey FROM contracts k WHERE k.contract_id = ?)`,
    )
    .raw(true);
  const out = new Map<string, HistoryPoint>();
  for (const [poolId, contractId] of keys) {
    const r = get.get(poolId, contractId) as unknown[] | undefined;
    if (r !== undefined) out.set(pointKey(poolId, contractId), pointOfRow(r));
  }
  return out;
}

/**
 * Brings the incremental history up to date with snapshot `snapshotId`, whose observations were
 * just inserted (call inside recordSnapshot's transaction). `changedContracts`: contracts whose
 * stored verification or reserves this snapshot changed (their pools are re-folded).
 */
export function updateHistoryState(
  mirror: Mirror,
  snapshotId: number,
  changedContracts: readonly string[],
): void {
  const db = mirrorDb(mirror);
  const through = Number(
    db.prepare('SELECT through_snapshot_id FROM history_state WHERE id = 1').pluck().get(),
  );
  const previous = Number(
    db.prepare('SELECT coalesce(max(id), 0) FROM snapshots WHERE id < ?').pluck().get(snapshotId),
  );
  const refold = new Set<string>();
  if (through === previous) {
    const obs = db.prepare(buildNewPointsSql('?')).raw(true).all(snapshotId) as unknown[][];
    const getFold = db.prepare(`SELECT ${HISTORY_COLUMNS} FROM pool_history WHERE pool_id = ?`).raw(true);
    const folds = new Map<string, PoolHistoryRow>();
    for (const r of obs) {
      const row = getFold.get(r[0]) as unknown[] | undefined;
      if (row !== undefined) folds.set(String(r[0]), foldOfRow(row));
    }
    const input = {
      snapshotId,
      obs,
      folds,
      firstPoints: readFirstPoints(db, computeFirstPointKeys(obs, folds)),
      archivedThroughMs: readArchivedThroughMs(db),
    };
    // the last proven first point of another contract of the pool observed in (after, before],
    // through the period index
    const between = new Map<string, HistoryPoint | null>();
    for (const q of computeProvenBetweenQueries(input)) {
      const b = db
        .prepare(
          `SELECT ${POINT_COLUMNS} FROM observations o
           JOIN pool_contracts pc ON pc.pool_id = o.pool_id AND pc.contract_key = o.contract_key
             AND pc.first_snapshot_id = o.snapshot_id
           JOIN contracts c ON c.ckey = pc.contract_key
           WHERE (o.${OBSERVATION_PERIOD_SQL}) BETWEEN (? >> ${OBSERVATION_PERIOD_SHIFT}) AND (? >> ${OBSERVATION_PERIOD_SHIFT})
             AND o.pool_id = ? AND o.observed_at_ms > ? AND o.observed_at_ms <= ? AND c.contract_id <> ?
             AND c.verification_status = 'verified' AND c.fields_source = 'blob'
           ORDER BY o.observed_at_ms DESC, o.snapshot_id DESC LIMIT 1`,
        )
        .raw(true)
        .get(q.afterMs, q.beforeMs, q.poolId, q.afterMs, q.beforeMs, q.contractId) as unknown[] | undefined;
      between.set(q.poolId, b === undefined ? null : pointOfRow(b));
    }
    const plan = computeHistoryPlan(input, between);
    writePoolHistories(db, plan.writes);
    for (const p of plan.refold) refold.add(p);
  }
  db.prepare(buildPoolContractsUpsertSql('?', true)).run(snapshotId);
  if (through !== previous) {
    refoldPools(mirror, undefined);
    unsettlePoolContracts(db, undefined);
  } else {
    if (changedContracts.length > 0) {
      // per pool a primary-key lookup (O(pools), not a scan of pool_contracts)
      const pools = db
        .prepare(
          `SELECT h.pool_id FROM pool_history h WHERE EXISTS (SELECT 1 FROM pool_contracts pc
             WHERE pc.pool_id = h.pool_id AND pc.contract_key IN
               (SELECT k.ckey FROM contracts k WHERE k.contract_id IN (SELECT value FROM json_each(?))))`,
        )
        .pluck()
        .all(JSON.stringify(changedContracts)) as string[];
      for (const p of pools) refold.add(p);
    }
    refoldPools(mirror, [...refold]);
    // an out-of-order observation or a changed verification can reorder a pool's settled rows
    unsettlePoolContracts(db, [...refold]);
  }
  settlePoolContracts(db);
  db.prepare('UPDATE history_state SET through_snapshot_id = ? WHERE id = 1').run(snapshotId);
}

/**
 * Reads the incremental history for an audit of `current` (pool → its current contract ID):
 * O(pools) rows. Null when the mirror's folds are not current (a mirror just migrated): the
 * caller then reads the whole history.
 */
export function readHistoryPast(
  mirror: Mirror,
  current: ReadonlyMap<string, string>,
  horizonMs: number,
): HistoryPast | null {
  return guardStore(mirror, 'readHistoryPast', () => {
    const db = mirrorDb(mirror);
    const state = db
      .prepare(
        `SELECT h.through_snapshot_id, (SELECT coalesce(max(id), 0) FROM snapshots), h.settled_below_ms
         FROM history_state h WHERE h.id = 1`,
      )
      .raw(true)
      .get() as [number, number, number | null] | undefined;
    countMirrorRead(mirror, 1);
    if (state === undefined || state[0] !== state[1]) return null;
    // a horizon before the settle watermark: the unsettled rows may not hold what it needs
    if (!isHorizonUnsettled(state[2], horizonMs)) return null;
    // a current contract the archive holds: its first points are not in the rows (../archive.ts)
    if (findArchivedContractIds(db, [...current.values()]).length > 0) return null;
    const rows = db.prepare(`SELECT ${HISTORY_COLUMNS} FROM pool_history`).raw(true).all() as unknown[][];
    countMirrorRead(mirror, rows.length);
    const firstPoints = readFirstPoints(db, [...current]);
    for (const [p, c] of current) countMirrorRead(mirror, firstPoints.has(pointKey(p, c)) ? 1 : 0);
    const recent = db
      .prepare(
        `SELECT ${POINT_COLUMNS}, pc.first_snapshot_id FROM ${POINT_FROM}
         WHERE pc.pool_id = ? AND pc.settled = 0 AND pc.first_ledger_created_at_ms >= ?`,
      )
      .raw(true);
    const before = db
      .prepare(
        `SELECT ${POINT_COLUMNS}, pc.first_snapshot_id FROM ${POINT_FROM}
         WHERE pc.pool_id = ? AND pc.settled = 0 AND pc.first_ledger_created_at_ms < ?
           AND c.verification_status = 'verified' AND c.fields_source = 'blob'
         ORDER BY pc.first_ledger_created_at_ms DESC, pc.first_observed_at_ms DESC, pc.first_snapshot_id DESC LIMIT 2`,
      )
      .raw(true);
    const timelines = new Map<string, unknown[][]>();
    for (const poolId of current.keys()) {
      const list = [
        ...(before.all(poolId, horizonMs) as unknown[][]),
        ...(recent.all(poolId, horizonMs) as unknown[][]),
      ];
      countMirrorRead(mirror, list.length);
      timelines.set(poolId, list);
    }
    return computeHistoryPast(rows, current, firstPoints, timelines);
  });
}
