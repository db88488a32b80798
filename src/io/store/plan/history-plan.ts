/**
 * The incremental history's fold step as a plan (docs/mirror.md "Incremental history", "Plan, then
 * apply"): given a snapshot's new observation points and what the mirror holds of their pools'
 * past (the pool_history rows, the first points of contracts, passed in), which pool_history rows
 * to write and which pools to re-fold from their whole series. Pure: both appliers
 * (../sqlite/apply-history.ts, ../postgres/apply-history.ts) read the inputs in their dialect and
 * write the result. Rows arrive as arrays in the column order of ../history-sql.ts.
 */
import {
  computeFoldWithEarlierPoint,
  computeHistoryFold,
  type HistoryFold,
  type HistoryPoint,
  stepHistoryFold,
} from '../../../core/audit/index.js';
import { LP_SHARE_TOLERANCE } from '../../../core/audit/lp-share.js';
import { parseTimestampMicros } from '../../../core/wire/timestamp.js';
import type { HistoryObservation } from '../types.js';

/** A pool_history row: the fold and the running aggregates. */
export interface PoolHistoryRow {
  readonly fold: HistoryFold;
  readonly observations: number;
  readonly firstObservedAtMs: number;
  readonly lastObservedAtMs: number;
  readonly lastSnapshotId: number;
  readonly lastContractId: string | null;
}

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

/** A history point from contract ID, first observation, ledger time, reserves, LP supply, proven, template at `r[at]…`. */
function pointAt(r: readonly unknown[], at: number, observedAtMs: number, contractId: string): HistoryPoint {
  const ledger = r[at + 2] as string | null;
  return {
    observedAtMs,
    contractId,
    ledgerCreatedAtMicros: ledger === null ? null : parseTimestampMicros(ledger),
    reserveA: r[at + 3] as string,
    reserveB: r[at + 4] as string,
    totalLpSupply: r[at + 5] as string,
    proven: Number(r[at + 6]) === 1,
    template: r[at + 7] as string,
    blobKey: null,
  };
}

/** A history point from a row of POINT_COLUMNS (../history-sql.ts). */
export function pointOfRow(r: readonly unknown[]): HistoryPoint {
  return pointAt(r, 0, Number(r[1]), r[0] as string);
}

/** A pool_history row from a row of HISTORY_COLUMNS (../history-sql.ts). */
export function foldOfRow(r: readonly unknown[]): PoolHistoryRow {
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

/** The column values of a pool_history row (HISTORY_COLUMNS order; micros as a bigint). */
export function computeHistoryRowValues(poolId: string, h: PoolHistoryRow): unknown[] {
  const { newest: n, lastProven: p, lastTemplate } = h.fold;
  const aggregates = [
    h.observations,
    h.firstObservedAtMs,
    h.lastObservedAtMs,
    h.lastSnapshotId,
    h.lastContractId,
  ];
  const newest = [n?.contractId ?? null, n?.ledgerCreatedAtMicros ?? null, n?.observedAtMs ?? null];
  const proven = [p?.contractId ?? null, p?.reserveA ?? null, p?.reserveB ?? null, p?.totalLpSupply ?? null];
  return [poolId, ...aggregates, ...newest, ...proven, lastTemplate];
}

/** The pool_history row of a pool's whole series (a re-fold); null for an empty series. */
function computeRefoldRow(list: readonly HistoryObservation[]): PoolHistoryRow | null {
  const first = list[0];
  if (first === undefined) return null;
  let last = first;
  for (const o of list) if (o.snapshotId > last.snapshotId) last = o;
  return {
    fold: computeHistoryFold(list.map(toHistoryPoint)),
    observations: list.length,
    firstObservedAtMs: first.observedAtMs,
    lastObservedAtMs: list[list.length - 1]?.observedAtMs ?? 0,
    lastSnapshotId: last.snapshotId,
    lastContractId: last.contractId,
  };
}

/** The pool_history rows of re-folding pools from their whole series (pools with an empty series have none). */
export function computeRefoldRows(
  series: Iterable<readonly [string, readonly HistoryObservation[]]>,
): [string, PoolHistoryRow][] {
  const rows: [string, PoolHistoryRow][] = [];
  for (const [poolId, list] of series) {
    const row = computeRefoldRow(list);
    if (row !== null) rows.push([poolId, row]);
  }
  return rows;
}

/**
 * A new observation of the snapshot: pool, observed at, contract ID, then (from column 2 on, as
 * POINT_COLUMNS) ledger time, reserves, LP supply, proven, template (NEW_POINT_COLUMNS).
 */
type NewPointRow = readonly unknown[];

const poolOf = (r: NewPointRow): string => String(r[0]);
const observedAtOf = (r: NewPointRow): number => Number(r[1]);
const contractOf = (r: NewPointRow): string | null => (r[2] === null ? null : String(r[2]));

/** A (pool, contract) pair whose first point the plan needs. */
export type PointKey = readonly [poolId: string, contractId: string];
export const pointKey = (poolId: string, contractId: string): string => `${poolId}\u0000${contractId}`;

/**
 * The first points the fold needs: of each observed contract in its pool, and of the last proven
 * contract of a pool observed out of order.
 */
export function computeFirstPointKeys(
  obs: readonly NewPointRow[],
  folds: ReadonlyMap<string, PoolHistoryRow>,
): PointKey[] {
  const keys: PointKey[] = [];
  for (const r of obs) {
    const poolId = poolOf(r);
    const contractId = contractOf(r);
    if (contractId !== null) keys.push([poolId, contractId]);
    const h = folds.get(poolId);
    if (h !== undefined && observedAtOf(r) < h.lastObservedAtMs && h.fold.lastProven !== null)
      keys.push([poolId, h.fold.lastProven.contractId]);
  }
  return keys;
}

/** A look-up the fold of an out-of-order observation needs: the pool's last proven first point in (after, before]. */
export interface ProvenBetweenQuery {
  readonly poolId: string;
  readonly afterMs: number;
  readonly beforeMs: number;
  /** the observed contract (left out) */
  readonly contractId: string;
}

/**
 * Whether an observation older than the pool's latest, of `contractId`, takes the first place of
 * the pool's last proven contract from a later point (`prior`: that contract's first point so far).
 */
function takesLastProvenPlace(
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

export interface HistoryPlanInput {
  readonly snapshotId: number;
  /** the snapshot's observations (NEW_POINT_COLUMNS rows) */
  readonly obs: readonly NewPointRow[];
  /** the pool_history rows of the observed pools */
  readonly folds: ReadonlyMap<string, PoolHistoryRow>;
  /** first points by pointKey (computeFirstPointKeys) */
  readonly firstPoints: ReadonlyMap<string, HistoryPoint>;
  /** observations at or before this time are in the archive (SQLite), null when none */
  readonly archivedThroughMs: number | null;
}

/** The look-ups for out-of-order observations that take their pool's last proven place. */
export function computeProvenBetweenQueries(input: HistoryPlanInput): ProvenBetweenQuery[] {
  const out: ProvenBetweenQuery[] = [];
  for (const r of input.obs) {
    const poolId = poolOf(r);
    const contractId = contractOf(r);
    const h = input.folds.get(poolId);
    if (h === undefined || observedAtOf(r) >= h.lastObservedAtMs || contractId === null) continue;
    const prior = input.firstPoints.get(pointKey(poolId, contractId));
    if (takesLastProvenPlace(h, observedAtOf(r), contractId, prior))
      out.push({ poolId, afterMs: observedAtOf(r), beforeMs: prior.observedAtMs, contractId });
  }
  return out;
}

export interface HistoryPlan {
  /** pool_history rows to write (insert or replace) */
  readonly writes: readonly (readonly [string, PoolHistoryRow])[];
  /** pools to re-fold from their whole series */
  readonly refold: ReadonlySet<string>;
}

/**
 * The pool_history rows a snapshot's observations give when the folds are current through the
 * previous snapshot. An observation older than its pool's latest steps the fold back from the first
 * points (or re-folds the pool when the fold cannot tell, a contract's first point moves earlier
 * with another ledger time, or the archive holds what it needs); `provenBetween`: the answers to
 * computeProvenBetweenQueries by pool (null: none).
 */
export function computeHistoryPlan(
  input: HistoryPlanInput,
  provenBetween: ReadonlyMap<string, HistoryPoint | null>,
): HistoryPlan {
  const writes: [string, PoolHistoryRow][] = [];
  const refold = new Set<string>();
  for (const r of input.obs) {
    const poolId = poolOf(r);
    const observedAtMs = observedAtOf(r);
    const contractId = contractOf(r);
    const h = input.folds.get(poolId) ?? null;
    const first = (id: string | null): HistoryPoint | undefined =>
      id === null ? undefined : input.firstPoints.get(pointKey(poolId, id));
    const point = contractId === null ? null : pointAt(r, 1, observedAtMs, contractId);
    if (h !== null && observedAtMs < h.lastObservedAtMs) {
      // out of order: older than what the archive holds, or stepped back from the first points
      const archived = input.archivedThroughMs !== null && observedAtMs <= input.archivedThroughMs;
      const prior = first(contractId);
      let fold: HistoryFold | null = h.fold;
      if (archived) fold = null;
      else if (point !== null) {
        fold =
          prior !== undefined &&
          prior.observedAtMs > observedAtMs &&
          prior.ledgerCreatedAtMicros !== point.ledgerCreatedAtMicros
            ? null
            : computeFoldWithEarlierPoint(h.fold, point, {
                prior,
                lastProvenFirstAtMs:
                  h.fold.lastProven === null
                    ? null
                    : (first(h.fold.lastProven.contractId)?.observedAtMs ?? null),
                provenFirstBetween: takesLastProvenPlace(h, observedAtMs, contractId, prior)
                  ? provenBetween.get(poolId)
                  : undefined,
              });
      }
      if (fold === null) refold.add(poolId);
      else
        writes.push([
          poolId,
          {
            fold,
            observations: h.observations + 1,
            firstObservedAtMs: Math.min(h.firstObservedAtMs, observedAtMs),
            lastObservedAtMs: h.lastObservedAtMs,
            // the latest recorded observation, as a re-fold keeps it (the highest snapshot id)
            lastSnapshotId: input.snapshotId,
            lastContractId: contractId,
          },
        ]);
      continue;
    }
    const start = h?.fold ?? computeHistoryFold([]);
    const fold =
      point === null
        ? start
        : stepHistoryFold(poolId, start, point, first(contractId), null, LP_SHARE_TOLERANCE);
    writes.push([
      poolId,
      {
        fold,
        observations: (h?.observations ?? 0) + 1,
        firstObservedAtMs: h?.firstObservedAtMs ?? observedAtMs,
        lastObservedAtMs: observedAtMs,
        lastSnapshotId: input.snapshotId,
        lastContractId: contractId,
      },
    ]);
  }
  return { writes, refold };
}

/** What an audit needs from the mirror's past for one pool. */
export interface HistoryPast {
  /** per pool with observations: the fold of its whole series */
  readonly folds: ReadonlyMap<string, HistoryFold>;
  /** per requested pool: the first earlier point of its current contract ID, when there is one */
  readonly priors: ReadonlyMap<string, HistoryPoint>;
  /**
   * per requested pool: the first points of its contracts created at or after the horizon, and
   * the two newest before it, in observation order (the known reserve states that matter now)
   */
  readonly timelines: ReadonlyMap<string, readonly HistoryPoint[]>;
  /** pools whose latest observation had a proof → that contract */
  readonly lastSeenPools: ReadonlyMap<string, string>;
}

/**
 * The HistoryPast of an audit of `current` (pool → its current contract ID) from the rows read:
 * every pool_history row, the first points by pointKey, and per pool its timeline rows
 * (POINT_COLUMNS + first snapshot id).
 */
export function computeHistoryPast(
  historyRows: readonly (readonly unknown[])[],
  current: ReadonlyMap<string, string>,
  firstPoints: ReadonlyMap<string, HistoryPoint>,
  timelineRows: ReadonlyMap<string, readonly (readonly unknown[])[]>,
): HistoryPast {
  const folds = new Map<string, HistoryFold>();
  const lastSeenPools = new Map<string, string>();
  for (const r of historyRows) {
    const h = foldOfRow(r);
    folds.set(String(r[0]), h.fold);
    if (h.lastContractId !== null) lastSeenPools.set(String(r[0]), h.lastContractId);
  }
  const priors = new Map<string, HistoryPoint>();
  const timelines = new Map<string, HistoryPoint[]>();
  for (const [poolId, contractId] of current) {
    const p = firstPoints.get(pointKey(poolId, contractId));
    if (p !== undefined) priors.set(poolId, p);
    // observation order: (first observed, first snapshot)
    const list = [...(timelineRows.get(poolId) ?? [])];
    list.sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[8]) - Number(b[8]));
    timelines.set(poolId, list.map(pointOfRow));
  }
  return { folds, priors, timelines, lastSeenPools };
}
