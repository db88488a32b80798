/**
 * The incremental history of a PostgreSQL mirror — the same folds, rows and rules as
 * ../history-state.ts (SQLite; docs/mirror.md "Incremental history"), with each step done for all
 * pools of a snapshot at once (one read of the folds, one of the priors, one upsert) instead of
 * per pool, since every statement is a round trip to the server. `updatePgHistoryState` runs in
 * the snapshot's transaction, under the mirror's write lock; `loadPgHistoryPast` reads O(pools) rows.
 */

import {
  computeHistoryFold,
  type HistoryFold,
  type HistoryPoint,
  stepHistoryFold,
} from '../../../core/audit/index.js';
import { LP_SHARE_TOLERANCE } from '../../../core/audit/lp-share.js';
import {
  foldOfRow,
  foldWithEarlierObservation,
  HISTORY_COLUMNS,
  type HistoryPast,
  newPointOfRow,
  type PoolHistoryRow,
  pointOfRow,
  takesLastProvenPlace,
  toHistoryPoint,
} from '../history-state.js';
import { computeLedgerCreatedAtColumn } from '../observation-columns.js';
import { computeTemplateColumn } from '../template-keys.js';
import { countPgRead, type PgMirror, queryRows, queryValue } from './connection.js';
import { loadPgObservationsForHistoryChecks, type Queryable } from './queries.js';

const POINT_COLUMNS = `c.contract_id, pc.first_observed_at_ms, pc.first_ledger_created_at, c.reserve_a, c.reserve_b,
  c.total_lp_supply, c.verification_status = 'verified' AND c.fields_source = 'blob',
  ${computeTemplateColumn()}`;
const POINT_FROM = 'pool_contracts pc JOIN contracts c ON c.ckey = pc.contract_key';

async function writePoolHistories(q: Queryable, rows: readonly [string, PoolHistoryRow][]): Promise<void> {
  if (rows.length === 0) return;
  const cols = HISTORY_COLUMNS.split(',').map((c) => c.trim());
  const values = rows.map(([poolId, h]) => {
    const { newest, lastProven, lastTemplate } = h.fold;
    return [
      poolId,
      h.observations,
      h.firstObservedAtMs,
      h.lastObservedAtMs,
      h.lastSnapshotId,
      h.lastContractId,
      newest?.contractId ?? null,
      newest === null ? null : newest.ledgerCreatedAtMicros.toString(),
      newest?.observedAtMs ?? null,
      lastProven?.contractId ?? null,
      lastProven?.reserveA ?? null,
      lastProven?.reserveB ?? null,
      lastProven?.totalLpSupply ?? null,
      lastTemplate,
    ];
  });
  const types = [
    'text',
    'bigint',
    'bigint',
    'bigint',
    'bigint',
    'text',
    'text',
    'bigint',
    'bigint',
    'text',
    'text',
    'text',
    'text',
    'text',
  ];
  await q.query(
    `INSERT INTO pool_history (${HISTORY_COLUMNS})
     SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
     ON CONFLICT (pool_id) DO UPDATE SET ${cols
       .slice(1)
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
    types.map((_t, i) => values.map((v) => v[i])),
  );
}

/** Re-folds the given pools (all pools when undefined) from their whole series. */
async function refoldPools(h: PgMirror, q: Queryable, poolIds: readonly string[] | undefined): Promise<void> {
  if (poolIds !== undefined && poolIds.length === 0) return;
  if (poolIds === undefined) await q.query('DELETE FROM pool_history');
  const series = await loadPgObservationsForHistoryChecks(h, q, {
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...(poolIds === undefined ? {} : { poolIds }),
  });
  const out: [string, PoolHistoryRow][] = [];
  for (const [poolId, list] of series) {
    if (list.length === 0) continue;
    let last = list[0];
    for (const o of list) if (last === undefined || o.snapshotId > last.snapshotId) last = o;
    out.push([
      poolId,
      {
        fold: computeHistoryFold(list.map(toHistoryPoint)),
        observations: list.length,
        firstObservedAtMs: list[0]?.observedAtMs ?? 0,
        lastObservedAtMs: list[list.length - 1]?.observedAtMs ?? 0,
        lastSnapshotId: last?.snapshotId ?? 0,
        lastContractId: last?.contractId ?? null,
      },
    ]);
  }
  await writePoolHistories(q, out);
}

/** The first-observation points of (pool, contract) pairs, keyed "pool\u0000contract". */
async function loadPriors(
  q: Queryable,
  pairs: readonly (readonly [string, string])[],
): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  if (pairs.length === 0) return out;
  const rows = await queryRows(
    q,
    `SELECT pc.pool_id, ${POINT_COLUMNS} FROM ${POINT_FROM}
     JOIN unnest($1::text[], $2::text[]) AS k (pool_id, contract_id)
       ON pc.pool_id = k.pool_id AND c.contract_id = k.contract_id`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  for (const r of rows) out.set(`${String(r[0])}\u0000${String(r[1])}`, r.slice(1));
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
  const obs = await queryRows(
    q,
    `SELECT o.pool_id, o.observed_at_ms, c.contract_id, ${computeLedgerCreatedAtColumn()}, c.reserve_a, c.reserve_b, c.total_lp_supply,
       c.verification_status = 'verified' AND c.fields_source = 'blob',
       ${computeTemplateColumn()}
     FROM observations o LEFT JOIN contracts c ON c.ckey = o.contract_key
     WHERE o.snapshot_id = $1 ORDER BY o.pool_id`,
    [snapshotId],
  );
  const refold = new Set<string>();
  if (through === previous) {
    const folds = new Map<string, PoolHistoryRow>();
    for (const r of await queryRows(
      q,
      `SELECT ${HISTORY_COLUMNS} FROM pool_history WHERE pool_id = ANY($1::text[])`,
      [obs.map((r) => r[0])],
    ))
      folds.set(String(r[0]), foldOfRow(r));
    // the first points of the observed contracts and, for a pool observed out of order, of its last
    // proven contract (foldWithEarlierObservation)
    const pairs: (readonly [string, string])[] = [];
    for (const r of obs) {
      const poolId = String(r[0]);
      if (r[2] !== null) pairs.push([poolId, String(r[2])]);
      const hr = folds.get(poolId);
      if (hr === undefined || Number(r[1]) >= hr.lastObservedAtMs) continue;
      if (hr.fold.lastProven !== null) pairs.push([poolId, hr.fold.lastProven.contractId]);
    }
    const priors = await loadPriors(q, pairs);
    const firstPointOf =
      (poolId: string) =>
      (id: string | null): HistoryPoint | undefined => {
        const row = id === null ? undefined : priors.get(`${poolId}\u0000${id}`);
        return row === undefined ? undefined : pointOfRow(row);
      };
    // for a pool whose out-of-order point takes the first place of its last proven contract from a
    // later point: the last proven first point between the two (observations_pool)
    const between = new Map<string, HistoryPoint | null>();
    for (const r of obs) {
      const poolId = String(r[0]);
      const observedAtMs = Number(r[1]);
      const contractId = r[2] as string | null;
      const hr = folds.get(poolId);
      if (hr === undefined || observedAtMs >= hr.lastObservedAtMs) continue;
      const prior = firstPointOf(poolId)(contractId);
      if (!takesLastProvenPlace(hr, observedAtMs, contractId, prior)) continue;
      const rows = await queryRows(
        q,
        `SELECT ${POINT_COLUMNS} FROM observations o
         JOIN pool_contracts pc ON pc.pool_id = o.pool_id AND pc.contract_key = o.contract_key
           AND pc.first_snapshot_id = o.snapshot_id
         JOIN contracts c ON c.ckey = pc.contract_key
         WHERE o.pool_id = $1 AND o.observed_at_ms > $2 AND o.observed_at_ms <= $3 AND c.contract_id <> $4
           AND c.verification_status = 'verified' AND c.fields_source = 'blob'
         ORDER BY o.observed_at_ms DESC, o.snapshot_id DESC LIMIT 1`,
        [poolId, observedAtMs, prior.observedAtMs, contractId],
      );
      between.set(poolId, rows[0] === undefined ? null : pointOfRow(rows[0]));
    }
    const writes: [string, PoolHistoryRow][] = [];
    for (const r of obs) {
      const poolId = String(r[0]);
      const observedAtMs = Number(r[1]);
      const contractId = r[2] as string | null;
      const hr = folds.get(poolId) ?? null;
      if (hr !== null && observedAtMs < hr.lastObservedAtMs) {
        // out of order: the fold is stepped back from what the mirror knows, or the pool re-folded
        const earlier = foldWithEarlierObservation(
          hr,
          r,
          snapshotId,
          observedAtMs,
          contractId,
          firstPointOf(poolId),
          () => between.get(poolId),
        );
        if (earlier === null) refold.add(poolId);
        else writes.push([poolId, earlier]);
        continue;
      }
      let fold: HistoryFold = hr?.fold ?? computeHistoryFold([]);
      if (contractId !== null) {
        const point = newPointOfRow(r, observedAtMs, contractId);
        const priorRow = priors.get(`${poolId}\u0000${contractId}`);
        const prior = priorRow === undefined ? undefined : pointOfRow(priorRow);
        fold = stepHistoryFold(poolId, fold, point, prior, null, LP_SHARE_TOLERANCE);
      }
      writes.push([
        poolId,
        {
          fold,
          observations: (hr?.observations ?? 0) + 1,
          firstObservedAtMs: hr?.firstObservedAtMs ?? observedAtMs,
          lastObservedAtMs: observedAtMs,
          lastSnapshotId: snapshotId,
          lastContractId: contractId,
        },
      ]);
    }
    await writePoolHistories(q, writes);
  }
  // the first observation of each contract in each pool (an older one, recorded late, replaces it)
  await q.query(
    `INSERT INTO pool_contracts (pool_id, contract_key, first_snapshot_id, first_observed_at_ms, first_ledger_created_at,
       first_ledger_created_at_ms)
     SELECT o.pool_id, o.contract_key, o.snapshot_id, o.observed_at_ms, ${computeLedgerCreatedAtColumn()}, o.ledger_created_at_ms
     FROM observations o WHERE o.snapshot_id = $1 AND o.contract_key IS NOT NULL
     ON CONFLICT (pool_id, contract_key) DO UPDATE SET first_snapshot_id = excluded.first_snapshot_id,
       first_observed_at_ms = excluded.first_observed_at_ms, first_ledger_created_at = excluded.first_ledger_created_at,
       first_ledger_created_at_ms = excluded.first_ledger_created_at_ms
     WHERE excluded.first_observed_at_ms < pool_contracts.first_observed_at_ms`,
    [snapshotId],
  );
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

/** What an audit reads of the past (see ../history-state.ts `loadHistoryPast`); null when not current. */
export async function loadPgHistoryPast(
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
  const folds = new Map<string, HistoryFold>();
  const lastSeenPools = new Map<string, string>();
  for (const r of rows) {
    const f = foldOfRow(r);
    folds.set(String(r[0]), f.fold);
    if (f.lastContractId !== null) lastSeenPools.set(String(r[0]), f.lastContractId);
  }
  const poolIds = [...current.keys()];
  const priorRows = await loadPriors(
    q,
    [...current].map(([p, c]) => [p, c] as const),
  );
  countPgRead(h, priorRows.size);
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
  const byPool = new Map<string, unknown[][]>();
  for (const r of [...before, ...recent]) {
    const p = String(r[0]);
    const list = byPool.get(p);
    if (list === undefined) byPool.set(p, [r.slice(1)]);
    else list.push(r.slice(1));
  }
  const priors = new Map<string, HistoryPoint>();
  const timelines = new Map<string, HistoryPoint[]>();
  for (const [poolId, contractId] of current) {
    const p = priorRows.get(`${poolId}\u0000${contractId}`);
    if (p !== undefined) priors.set(poolId, pointOfRow(p));
    const list = byPool.get(poolId) ?? [];
    // observation order: (first observed, first snapshot)
    list.sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[8]) - Number(b[8]));
    timelines.set(poolId, list.map(pointOfRow));
  }
  return { folds, priors, timelines, lastSeenPools };
}
