/**
 * The incremental history of the mirror (schema v3, docs/mirror.md "Incremental history"): per pool
 * the fold of the history series check and running aggregates (`pool_history`), the first
 * observation of each contract ID in each pool (`pool_contracts`), and the snapshot the folds are
 * current through (`history_state`). `updateHistoryState` runs inside recordSnapshot's
 * transaction; `loadHistoryPast` is what an audit reads: O(pools) rows, whatever the mirror's
 * length. An observation older than the pool's latest (a snapshot recorded out of order) steps the
 * fold back from the first points the mirror keeps (foldWithEarlierObservation); a pool whose fold
 * cannot be had so, or one of whose contracts changed its stored verification, is re-folded from
 * its whole series; a mirror whose folds are not current (just migrated) is re-folded as a whole by
 * the next recorded snapshot.
 */

import {
  computeFoldWithEarlierPoint,
  computeHistoryFold,
  type HistoryFold,
  type HistoryPoint,
  stepHistoryFold,
} from '../../core/audit/index.js';
import { LP_SHARE_TOLERANCE } from '../../core/audit/lp-share.js';
import { parseTimestampMicros } from '../../core/wire/timestamp.js';
import { findArchivedContractIds, readArchivedThroughMs } from './archive.js';
import { OBSERVATION_PERIOD_SHIFT, OBSERVATION_PERIOD_SQL } from './migrations/008-appended-raw-bodies.js';
import { countMirrorRead, mirrorDb } from './mirror-db.js';
import { computeLedgerCreatedAtColumn } from './observation-columns.js';
import { guardStore, type Mirror } from './open-mirror.js';
import { loadObservationsForHistoryChecks } from './queries.js';
import { isHorizonUnsettled, settlePoolContracts, unsettlePoolContracts } from './settled-contracts.js';
import { computeTemplateColumn } from './template-keys.js';
import type { HistoryObservation } from './types.js';

/** An observation as a point of the history series check. */
export function toHistoryPoint(o: HistoryObservation): HistoryPoint {
  return {
    observedAtMs: o.observedAtMs,
    contractId: o.contractId,
    ledgerCreatedAtMicros: o.ledgerCreatedAt === null ? null : parseTimestampMicros(o.ledgerCreatedAt),
    reserveA: o.contractReserveA ?? o.reserveA,
    reserveB: o.contractReserveB ?? o.reserveB,
    totalLpSupply: o.contractTotalLpSupply ?? o.totalLpSupply,
    proven: o.proven,
    template: o.contractId === null ? null : o.template,
    blobKey: null,
  };
}

// the first observation of a contract in a pool, with its contract row (same values as toHistoryPoint)
const POINT_COLUMNS = `c.contract_id, pc.first_observed_at_ms, pc.first_ledger_created_at, c.reserve_a, c.reserve_b,
  c.total_lp_supply, c.verification_status = 'verified' AND c.fields_source = 'blob',
  ${computeTemplateColumn()}`;
const POINT_FROM = 'pool_contracts pc JOIN contracts c ON c.ckey = pc.contract_key';
/** the first observation of contract ID ? in pool ? */
const POINT_WHERE =
  'pc.pool_id = ? AND pc.contract_key = (SELECT k.ckey FROM contracts k WHERE k.contract_id = ?)';

/** A history point from the row of POINT_COLUMNS (both backends). */
export function pointOfRow(r: unknown[]): HistoryPoint {
  const ledger = r[2] as string | null;
  return {
    observedAtMs: Number(r[1]),
    contractId: r[0] as string,
    ledgerCreatedAtMicros: ledger === null ? null : parseTimestampMicros(ledger),
    reserveA: r[3] as string,
    reserveB: r[4] as string,
    totalLpSupply: r[5] as string,
    proven: Number(r[6]) === 1,
    template: r[7] as string,
    blobKey: null,
  };
}

/**
 * The history point of a new observation row (pool, observed at, contract, ledger time, reserves,
 * LP supply, proven, template from column 3 on; both backends).
 */
export function newPointOfRow(r: unknown[], observedAtMs: number, contractId: string): HistoryPoint {
  const ledger = r[3] as string | null;
  return {
    observedAtMs,
    contractId,
    ledgerCreatedAtMicros: ledger === null ? null : parseTimestampMicros(ledger),
    reserveA: r[4] as string,
    reserveB: r[5] as string,
    totalLpSupply: r[6] as string,
    proven: Number(r[7]) === 1,
    template: r[8] as string,
    blobKey: null,
  };
}

/**
 * Whether an observation older than the pool's latest, of `contractId`, takes the first place of
 * the pool's last proven contract from a later point (`prior`: that contract's first point so far):
 * then foldWithEarlierObservation needs the last proven first point between the two.
 */
export function takesLastProvenPlace(
  h: PoolHistoryRow,
  observedAtMs: number,
  contractId: string | null,
  prior: HistoryPoint | undefined,
): prior is HistoryPoint {
  return (
    contractId !== null &&
    prior !== undefined &&
    prior.observedAtMs > observedAtMs &&
    h.fold.lastProven?.contractId === contractId
  );
}

/**
 * The pool_history row after an observation older than the pool's latest (`r`: the row of a new
 * observation of snapshot `snapshotId`, see newPointOfRow), from the fold and the first points the
 * mirror keeps: `firstPoint` gives the pool's first point of a contract ID as pool_contracts holds
 * it before this snapshot's rows are added; `provenFirstBetween(after, before)` the pool's last
 * proven first point of another contract observed in (after, before] (null: none; undefined: not
 * known). Null when the pool must be re-folded from its whole series: the fold cannot tell, or a
 * contract's first point moves earlier with another ledger time (which would reorder the pool's
 * settled rows). Both backends.
 */
export function foldWithEarlierObservation(
  h: PoolHistoryRow,
  r: unknown[],
  snapshotId: number,
  observedAtMs: number,
  contractId: string | null,
  firstPoint: (contractId: string | null) => HistoryPoint | undefined,
  provenFirstBetween: (afterMs: number, beforeMs: number) => HistoryPoint | null | undefined,
): PoolHistoryRow | null {
  let fold = h.fold;
  if (contractId !== null) {
    const point = newPointOfRow(r, observedAtMs, contractId);
    const prior = firstPoint(contractId);
    if (
      prior !== undefined &&
      prior.observedAtMs > observedAtMs &&
      prior.ledgerCreatedAtMicros !== point.ledgerCreatedAtMicros
    )
      return null;
    const next = computeFoldWithEarlierPoint(fold, point, {
      prior,
      lastProvenFirstAtMs:
        fold.lastProven === null ? null : (firstPoint(fold.lastProven.contractId)?.observedAtMs ?? null),
      provenFirstBetween: takesLastProvenPlace(h, observedAtMs, contractId, prior)
        ? provenFirstBetween(observedAtMs, prior.observedAtMs)
        : undefined,
    });
    if (next === null) return null;
    fold = next;
  }
  return {
    fold,
    observations: h.observations + 1,
    firstObservedAtMs: Math.min(h.firstObservedAtMs, observedAtMs),
    lastObservedAtMs: h.lastObservedAtMs,
    // the latest recorded observation, as a re-fold keeps it (the highest snapshot id)
    lastSnapshotId: snapshotId,
    lastContractId: contractId,
  };
}

/** A pool_history row: the fold and the running aggregates. */
export interface PoolHistoryRow {
  readonly fold: HistoryFold;
  readonly observations: number;
  readonly firstObservedAtMs: number;
  readonly lastObservedAtMs: number;
  readonly lastSnapshotId: number;
  readonly lastContractId: string | null;
}

/** A pool_history row from the row of HISTORY_COLUMNS (both backends). */
export function foldOfRow(r: unknown[]): PoolHistoryRow {
  const s = (i: number): string | null => (typeof r[i] === 'string' ? (r[i] as string) : null);
  const newestId = s(6);
  const provenId = s(9);
  return {
    observations: Number(r[1]),
    firstObservedAtMs: Number(r[2]),
    lastObservedAtMs: Number(r[3]),
    lastSnapshotId: Number(r[4]),
    lastContractId: s(5),
    fold: {
      newest:
        newestId === null
          ? null
          : {
              contractId: newestId,
              ledgerCreatedAtMicros: BigInt(r[7] as number),
              observedAtMs: Number(r[8]),
            },
      lastProven:
        provenId === null
          ? null
          : {
              contractId: provenId,
              reserveA: s(10) ?? '',
              reserveB: s(11) ?? '',
              totalLpSupply: s(12) ?? '',
            },
      lastTemplate: s(13),
    },
  };
}

export const HISTORY_COLUMNS = `pool_id, observations, first_observed_at_ms, last_observed_at_ms, last_snapshot_id, last_contract_id,
  newest_contract_id, newest_ledger_micros, newest_observed_at_ms, proven_contract_id, proven_reserve_a, proven_reserve_b,
  proven_total_lp_supply, last_template`;

function writePoolHistory(mirror: Mirror, poolId: string, h: PoolHistoryRow): void {
  const { newest, lastProven, lastTemplate } = h.fold;
  mirrorDb(mirror)
    .prepare(
      `INSERT OR REPLACE INTO pool_history (${HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      poolId,
      h.observations,
      h.firstObservedAtMs,
      h.lastObservedAtMs,
      h.lastSnapshotId,
      h.lastContractId,
      newest?.contractId ?? null,
      newest === null ? null : newest.ledgerCreatedAtMicros,
      newest?.observedAtMs ?? null,
      lastProven?.contractId ?? null,
      lastProven?.reserveA ?? null,
      lastProven?.reserveB ?? null,
      lastProven?.totalLpSupply ?? null,
      lastTemplate,
    );
}

/** Re-folds the given pools (all pools when undefined) from their whole series. */
function refoldPools(mirror: Mirror, poolIds: readonly string[] | undefined): void {
  if (poolIds !== undefined && poolIds.length === 0) return;
  const db = mirrorDb(mirror);
  if (poolIds === undefined) db.prepare('DELETE FROM pool_history').run();
  const series = loadObservationsForHistoryChecks(mirror, {
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...(poolIds === undefined ? {} : { poolIds }),
  });
  for (const [poolId, list] of series) {
    if (list.length === 0) continue;
    let last = list[0];
    for (const o of list) if (last === undefined || o.snapshotId > last.snapshotId) last = o;
    writePoolHistory(mirror, poolId, {
      fold: computeHistoryFold(list.map(toHistoryPoint)),
      observations: list.length,
      firstObservedAtMs: list[0]?.observedAtMs ?? 0,
      lastObservedAtMs: list[list.length - 1]?.observedAtMs ?? 0,
      lastSnapshotId: last?.snapshotId ?? 0,
      lastContractId: last?.contractId ?? null,
    });
  }
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
  const obs = db
    .prepare(
      `SELECT o.pool_id, o.observed_at_ms, c.contract_id, ${computeLedgerCreatedAtColumn()}, c.reserve_a, c.reserve_b, c.total_lp_supply,
         c.verification_status = 'verified' AND c.fields_source = 'blob',
         ${computeTemplateColumn()}
       FROM observations o LEFT JOIN contracts c ON c.ckey = o.contract_key
       WHERE o.snapshot_id = ? ORDER BY o.pool_id`,
    )
    .raw(true)
    .all(snapshotId) as unknown[][];
  const refold = new Set<string>();
  const archivedThroughMs = readArchivedThroughMs(db);
  if (through === previous) {
    const getRow = db.prepare(`SELECT ${HISTORY_COLUMNS} FROM pool_history WHERE pool_id = ?`).raw(true);
    const getPrior = db.prepare(`SELECT ${POINT_COLUMNS} FROM ${POINT_FROM} WHERE ${POINT_WHERE}`).raw(true);
    // the last proven first point of another contract of the pool observed in (after, before], through
    // the period index (prepared when a snapshot comes out of order)
    const provenFirstBetweenSql = () =>
      db
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
        .raw(true);
    let getProvenFirstBetween: ReturnType<typeof provenFirstBetweenSql> | null = null;
    for (const r of obs) {
      const poolId = r[0] as string;
      const observedAtMs = Number(r[1]);
      const contractId = r[2] as string | null;
      const row = getRow.get(poolId) as unknown[] | undefined;
      const h = row === undefined ? null : foldOfRow(row);
      if (
        h !== null &&
        observedAtMs < h.lastObservedAtMs &&
        archivedThroughMs !== null &&
        observedAtMs <= archivedThroughMs
      ) {
        // older than what the archive holds: its first points are not in the rows (./archive.ts)
        refold.add(poolId);
        continue;
      }
      if (h !== null && observedAtMs < h.lastObservedAtMs) {
        // out of order: the fold is stepped back from what the mirror knows, or the pool re-folded
        const firstPoint = (id: string | null): HistoryPoint | undefined => {
          const first = id === null ? undefined : (getPrior.get(poolId, id) as unknown[] | undefined);
          return first === undefined ? undefined : pointOfRow(first);
        };
        const between = (afterMs: number, beforeMs: number): HistoryPoint | null => {
          getProvenFirstBetween ??= provenFirstBetweenSql();
          const b = getProvenFirstBetween.get(afterMs, beforeMs, poolId, afterMs, beforeMs, contractId) as
            | unknown[]
            | undefined;
          return b === undefined ? null : pointOfRow(b);
        };
        const earlier = foldWithEarlierObservation(
          h,
          r,
          snapshotId,
          observedAtMs,
          contractId,
          firstPoint,
          between,
        );
        if (earlier === null) refold.add(poolId);
        else writePoolHistory(mirror, poolId, earlier);
        continue;
      }
      let fold = h?.fold ?? computeHistoryFold([]);
      if (contractId !== null) {
        const point = newPointOfRow(r, observedAtMs, contractId);
        const priorRow = getPrior.get(poolId, contractId) as unknown[] | undefined;
        const prior = priorRow === undefined ? undefined : pointOfRow(priorRow);
        fold = stepHistoryFold(poolId, fold, point, prior, null, LP_SHARE_TOLERANCE);
      }
      writePoolHistory(mirror, poolId, {
        fold,
        observations: (h?.observations ?? 0) + 1,
        firstObservedAtMs: h?.firstObservedAtMs ?? observedAtMs,
        lastObservedAtMs: observedAtMs,
        lastSnapshotId: snapshotId,
        lastContractId: contractId,
      });
    }
  }
  // the first observation of each contract in each pool (an older one, recorded late, replaces it);
  // one without a ledger time is settled at once: no audit reads it (settled-contracts.ts)
  db.prepare(
    `INSERT INTO pool_contracts (pool_id, contract_key, first_snapshot_id, first_observed_at_ms, first_ledger_created_at,
       first_ledger_created_at_ms, settled)
     SELECT o.pool_id, o.contract_key, o.snapshot_id, o.observed_at_ms, ${computeLedgerCreatedAtColumn()}, o.ledger_created_at_ms,
       o.ledger_created_at_ms IS NULL
     FROM observations o WHERE o.snapshot_id = ? AND o.contract_key IS NOT NULL
     ON CONFLICT (pool_id, contract_key) DO UPDATE SET first_snapshot_id = excluded.first_snapshot_id,
       first_observed_at_ms = excluded.first_observed_at_ms, first_ledger_created_at = excluded.first_ledger_created_at,
       first_ledger_created_at_ms = excluded.first_ledger_created_at_ms, settled = excluded.settled
     WHERE excluded.first_observed_at_ms < pool_contracts.first_observed_at_ms`,
  ).run(snapshotId);
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

/** What an audit needs from the mirror's past for one pool. */
export interface HistoryPast {
  /** per pool with observations: the fold of its whole series */
  readonly folds: ReadonlyMap<string, HistoryFold>;
  /** per requested pool: the first earlier point of its current contract ID, when there is one */
  readonly priors: ReadonlyMap<string, HistoryPoint>;
  /**
   * per requested pool: the first points of its contracts created at or after `horizonMs`, and
   * the two newest before it, in observation order (the known reserve states that matter now)
   */
  readonly timelines: ReadonlyMap<string, readonly HistoryPoint[]>;
  /** pools whose latest observation had a proof → that contract */
  readonly lastSeenPools: ReadonlyMap<string, string>;
}

/**
 * Reads the incremental history for an audit of `current` (pool → its current contract ID):
 * O(pools) rows. Null when the mirror's folds are not current (a mirror just migrated): the
 * caller then reads the whole history.
 */
export function loadHistoryPast(
  mirror: Mirror,
  current: ReadonlyMap<string, string>,
  horizonMs: number,
): HistoryPast | null {
  return guardStore(mirror, 'loadHistoryPast', () => {
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
    // a current contract the archive holds: its first points are not in the rows (./archive.ts)
    if (findArchivedContractIds(db, [...current.values()]).length > 0) return null;
    const rows = db.prepare(`SELECT ${HISTORY_COLUMNS} FROM pool_history`).raw(true).all() as unknown[][];
    countMirrorRead(mirror, rows.length);
    const folds = new Map<string, HistoryFold>();
    const lastSeenPools = new Map<string, string>();
    for (const r of rows) {
      const h = foldOfRow(r);
      folds.set(r[0] as string, h.fold);
      if (h.lastContractId !== null) lastSeenPools.set(r[0] as string, h.lastContractId);
    }
    const getPrior = db.prepare(`SELECT ${POINT_COLUMNS} FROM ${POINT_FROM} WHERE ${POINT_WHERE}`).raw(true);
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
    const priors = new Map<string, HistoryPoint>();
    const timelines = new Map<string, HistoryPoint[]>();
    for (const [poolId, contractId] of current) {
      const p = getPrior.get(poolId, contractId) as unknown[] | undefined;
      countMirrorRead(mirror, p === undefined ? 0 : 1);
      if (p !== undefined) priors.set(poolId, pointOfRow(p));
      const list = [
        ...(before.all(poolId, horizonMs) as unknown[][]),
        ...(recent.all(poolId, horizonMs) as unknown[][]),
      ];
      countMirrorRead(mirror, list.length);
      // observation order: (first observed, first snapshot)
      list.sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[8]) - Number(b[8]));
      timelines.set(poolId, list.map(pointOfRow));
    }
    return { folds, priors, timelines, lastSeenPools };
  });
}
