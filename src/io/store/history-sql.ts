/**
 * The SQL both dialects share for the incremental history (docs/mirror.md "Incremental history"):
 * the column lists whose rows ./plan/history-plan.ts reads by position, and the read of a
 * snapshot's new observation points. Placeholders are the dialect's (`?` or `$1`).
 */
import { buildLedgerCreatedAtSql } from './observation-columns.js';
import { buildTemplateSql } from './template-keys.js';

/** pool_history's columns (foldOfRow / computeHistoryRowValues order) */
export const HISTORY_COLUMNS = `pool_id, observations, first_observed_at_ms, last_observed_at_ms, last_snapshot_id, last_contract_id,
  newest_contract_id, newest_ledger_micros, newest_observed_at_ms, proven_contract_id, proven_reserve_a, proven_reserve_b,
  proven_total_lp_supply, last_template`;

/** the first observation of a contract in a pool, with its contract row (pointOfRow order) */
export const POINT_COLUMNS = `c.contract_id, pc.first_observed_at_ms, pc.first_ledger_created_at, c.reserve_a, c.reserve_b,
  c.total_lp_supply, c.verification_status = 'verified' AND c.fields_source = 'blob',
  ${buildTemplateSql()}`;
export const POINT_FROM = 'pool_contracts pc JOIN contracts c ON c.ckey = pc.contract_key';

/** The observations of snapshot `param` as new points (pool, observed at, then POINT_COLUMNS from the contract ID). */
export function buildNewPointsSql(param: string): string {
  return `SELECT o.pool_id, o.observed_at_ms, c.contract_id, ${buildLedgerCreatedAtSql()}, c.reserve_a, c.reserve_b,
       c.total_lp_supply, c.verification_status = 'verified' AND c.fields_source = 'blob', ${buildTemplateSql()}
     FROM observations o LEFT JOIN contracts c ON c.ckey = o.contract_key
     WHERE o.snapshot_id = ${param} ORDER BY o.pool_id`;
}

/**
 * The upsert of a snapshot's first observations into pool_contracts (an older one, recorded late,
 * replaces it); `settled` (SQLite, schema 9): a row without a ledger time is settled as written.
 */
export function buildPoolContractsUpsertSql(param: string, settled: boolean): string {
  const [col, value, set] = settled
    ? [', settled', ', o.ledger_created_at_ms IS NULL', ', settled = excluded.settled']
    : ['', '', ''];
  return `INSERT INTO pool_contracts (pool_id, contract_key, first_snapshot_id, first_observed_at_ms, first_ledger_created_at,
       first_ledger_created_at_ms${col})
     SELECT o.pool_id, o.contract_key, o.snapshot_id, o.observed_at_ms, ${buildLedgerCreatedAtSql()}, o.ledger_created_at_ms${value}
     FROM observations o WHERE o.snapshot_id = ${param} AND o.contract_key IS NOT NULL
     ON CONFLICT (pool_id, contract_key) DO UPDATE SET first_snapshot_id = excluded.first_snapshot_id,
       first_observed_at_ms = excluded.first_observed_at_ms, first_ledger_created_at = excluded.first_ledger_created_at,
       first_ledger_created_at_ms = excluded.first_ledger_created_at_ms${set}
     WHERE excluded.first_observed_at_ms < pool_contracts.first_observed_at_ms`;
}
