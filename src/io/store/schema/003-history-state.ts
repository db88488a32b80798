/**
 * Mirror schema v3 (docs/mirror.md "Incremental history"): what the next audit needs from a pool's
 * past, kept up to date by every recorded snapshot in the same transaction, so an audit reads
 * O(pools) rows instead of the whole history.
 * - `pool_contracts`: the first observation of each contract ID in each pool (the history checks'
 *   "seen" map, and the known reserve states of the market-cache timeline), filled here from the
 *   existing observations;
 * - `pool_history`: per pool the fold of the series check (newest ledger time, last proven new
 *   contract, last template) and running aggregates (observations, first/last time, latest contract);
 * - `history_state`: the snapshot the folds are current through;
 * - `observations_contract` (migration 2) is dropped: the observations of a contract in a pool are
 *   found through `pool_contracts` now, and the index cost ~150 bytes per observation. Migrations are SQL only, so the
 *   folds of an existing mirror are computed by the first snapshot recorded after this migration
 *   (until then an audit reads the whole history, as before).
 * One text for both dialects (./dialect.ts).
 */
import { type Dialect, WORDS } from './dialect.js';

export function buildHistoryStateSql(dialect: Dialect): string[] {
  const { big, id, clustered } = WORDS[dialect];
  return [
    `CREATE TABLE pool_contracts (
     pool_id ${id} NOT NULL,
     contract_id ${id} NOT NULL REFERENCES contracts (contract_id),
     first_snapshot_id ${big} NOT NULL,
     first_observed_at_ms ${big} NOT NULL,
     first_ledger_created_at TEXT,
     first_ledger_created_at_ms ${big},
     PRIMARY KEY (pool_id, contract_id)
   )${clustered}`,
    'CREATE INDEX pool_contracts_ledger ON pool_contracts (pool_id, first_ledger_created_at_ms)',
    `INSERT INTO pool_contracts (pool_id, contract_id, first_snapshot_id, first_observed_at_ms, first_ledger_created_at,
     first_ledger_created_at_ms)
   SELECT pool_id, contract_id, snapshot_id, observed_at_ms, ledger_created_at, ledger_created_at_ms FROM (
     SELECT o.*, row_number() OVER (PARTITION BY pool_id, contract_id ORDER BY observed_at_ms, snapshot_id) AS rn
     FROM observations o WHERE contract_id IS NOT NULL) firsts WHERE rn = 1`,
    'DROP INDEX observations_contract',
    `CREATE TABLE pool_history (
     pool_id ${id} PRIMARY KEY,
     observations ${big} NOT NULL,
     first_observed_at_ms ${big} NOT NULL,
     last_observed_at_ms ${big} NOT NULL,
     last_snapshot_id ${big} NOT NULL,
     last_contract_id TEXT,
     newest_contract_id TEXT,
     newest_ledger_micros ${big},
     newest_observed_at_ms ${big},
     proven_contract_id TEXT,
     proven_reserve_a TEXT,
     proven_reserve_b TEXT,
     proven_total_lp_supply TEXT,
     last_template TEXT
   )${clustered}`,
    `CREATE TABLE history_state (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     through_snapshot_id ${big} NOT NULL
   )`,
    `INSERT INTO history_state (id, through_snapshot_id)
   VALUES (1, CASE WHEN EXISTS (SELECT 1 FROM observations) THEN -1 ELSE (SELECT coalesce(max(id), 0) FROM snapshots) END)`,
  ];
}
