/**
 * The SQL both dialects share for the incremental history (docs/mirror.md "Incremental history"):
 * the column lists whose rows ./plan/history-plan.ts reads by position, and the read of a
 * snapshot's new observation points. Placeholders are the dialect's (`?` or `$1`).
 */
import { buildLedgerCreatedAtSql } from './observation-columns.js';
import { computeHistoryRowValues, type PoolHistoryRow } from './plan/history-plan.js';
import type { RowColumns } from './row-columns.js';
import { buildTemplateSql } from './template-keys.js';

/** pool_history's columns (foldOfRow / computeHistoryRowValues order) */
export const HISTORY_COLUMNS = `pool_id, observations, first_observed_at_ms, last_observed_at_ms, last_snapshot_id, last_contract_id,
  newest_contract_id, newest_ledger_micros, newest_observed_at_ms, proven_contract_id, proven_reserve_a, proven_reserve_b,
  proven_total_lp_supply, last_template`;

const HISTORY_TYPES =
  'text bigint bigint bigint bigint text text bigint bigint text text text text text'.split(' ');

/** pool_history rows (pool, row) as written by both appliers, with POOL_HISTORY_UPSERT */
export const POOL_HISTORY_COLUMNS: RowColumns = {
  table: 'pool_history',
  columns: HISTORY_COLUMNS.split(',').map((c, i) => [c.trim(), HISTORY_TYPES[i] ?? 'text'] as const),
  values: (r) => computeHistoryRowValues(...(r as readonly [string, PoolHistoryRow])),
};
export const POOL_HISTORY_UPSERT = `ON CONFLICT (pool_id) DO UPDATE SET ${POOL_HISTORY_COLUMNS.columns
  .slice(1)
  .map(([c]) => `${c} = excluded.${c}`)
  .join(', ')}`;

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
