/**
 * Settling `pool_contracts` (schema v9, schema/009-settled-pool-contracts.ts): the partial index
 * `pool_contracts_unsettled` (pool, ledger time) holds only the rows an audit can still read in
 * `readHistoryPast` — per pool, the contracts created at or after the audit's horizon and the two
 * newest verified ones before it. With W = the newest snapshot's start − the market horizon − a
 * slack, a row is settled (left out of the index) when its ledger time is before W (or unknown) and
 * it is not one of its pool's two newest verified rows before W. So for any horizon ≥ W the
 * unsettled rows give exactly the rows the full index gave: the ones at or after the horizon are
 * all there, and the two newest verified before it are among the unsettled rows before it (or are
 * the two kept below W). For a horizon < W the caller reads the whole history instead.
 *
 * Invariant: every settled verified row has two newer verified rows before W that are unsettled.
 * A change of a contract's stored verification breaks it for that pool, and a snapshot recorded out
 * of order can move a contract's first observation: those pools (or all) are unsettled first and
 * settled again in the same transaction.
 */

import type Database from 'better-sqlite3';
import { MARKET_STATE_HORIZON_MS } from '../../core/audit/market-time.js';

/**
 * How far before the market horizon rows stay unsettled: an audit whose clock is up to this much
 * behind the newest recorded snapshot still reads through the index.
 */
export const SETTLE_SLACK_MS = 60_000;

/** The settle watermark for a mirror whose newest snapshot started at `newestStartMs`. */
export function computeSettleWatermark(newestStartMs: number): number {
  return newestStartMs - MARKET_STATE_HORIZON_MS - SETTLE_SLACK_MS;
}

const VERIFIED = `(c.verification_status = 'verified' AND c.fields_source = 'blob')`;

/**
 * Advances the watermark to the newest snapshot and settles what falls below it (inside the record
 * transaction). Reads only the unsettled rows: O(pools + rows new since the last call).
 */
export function settlePoolContracts(db: Database.Database): void {
  const newest = db.prepare('SELECT max(started_at_ms) FROM snapshots').pluck().get() as number | null;
  if (newest === null) return;
  const old = db.prepare('SELECT settled_below_ms FROM history_state WHERE id = 1').pluck().get() as
    | number
    | null
    | undefined;
  const w = Math.max(old ?? Number.NEGATIVE_INFINITY, computeSettleWatermark(newest));
  // per unsettled row before W: how many verified rows of its pool before W are newer (the order of
  // the audit's read: ledger time, first observation, first snapshot — unique per pool). Driven by
  // the pools (pool_history has every pool with observations), so each pool's rows are a range of
  // the index below W: the rows after W — a busy exchange's last minutes — are not visited.
  // (A pool without a pool_history row, a mirror whose folds are not built yet, just stays unsettled.
  // A row without a ledger time is settled when it is written: no audit reads it.)
  const rows = db
    .prepare(
      `SELECT contract_key, pool_id FROM (
         SELECT pc.contract_key, pc.pool_id, pc.first_ledger_created_at_ms AS ms, ${VERIFIED} AS v,
           coalesce(sum(${VERIFIED}) OVER (PARTITION BY pc.pool_id
             ORDER BY pc.first_ledger_created_at_ms DESC, pc.first_observed_at_ms DESC, pc.first_snapshot_id DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS newer
         FROM pool_history h
           CROSS JOIN pool_contracts pc ON pc.pool_id = h.pool_id AND pc.settled = 0
             AND pc.first_ledger_created_at_ms < ?
           JOIN contracts c ON c.ckey = pc.contract_key
       ) WHERE NOT v OR newer >= 2`,
    )
    .raw(true)
    .all(w) as [number, string][];
  const settle = db.prepare('UPDATE pool_contracts SET settled = 1 WHERE contract_key = ? AND pool_id = ?');
  for (const [key, pool] of rows) settle.run(key, pool);
  db.prepare('UPDATE history_state SET settled_below_ms = ? WHERE id = 1').run(w);
}

/**
 * Puts the rows of `poolIds` (every pool when undefined) back into the index; the next
 * settlePoolContracts settles them again from scratch. A scan of pool_contracts: only for the rare
 * cases in the module comment.
 */
export function unsettlePoolContracts(db: Database.Database, poolIds: readonly string[] | undefined): void {
  // a row without a ledger time stays settled (sqlite/apply-history.ts settles it as it is written)
  const unsettled = 'SET settled = 0 WHERE settled = 1 AND first_ledger_created_at_ms IS NOT NULL';
  if (poolIds === undefined) {
    db.prepare(`UPDATE pool_contracts ${unsettled}`).run();
    return;
  }
  if (poolIds.length === 0) return;
  db.prepare(`UPDATE pool_contracts ${unsettled} AND pool_id IN (SELECT value FROM json_each(?))`).run(
    JSON.stringify(poolIds),
  );
}

/**
 * Whether an audit with market horizon `horizonMs` can read through the unsettled rows (else it
 * must read the whole history): `settledBelowMs` is `history_state.settled_below_ms`.
 */
export function isHorizonUnsettled(settledBelowMs: number | null, horizonMs: number): boolean {
  return settledBelowMs === null || horizonMs >= settledBelowMs;
}
