/**
 * Mirror schema v5 (docs/mirror.md "Contract keys"): contracts get a stable integer key `ckey`
 * (unique; a real column, not the rowid, which VACUUM may renumber), and the tables that repeat a
 * contract per observation reference it by that key instead of the 138-character contract ID:
 * `observations.contract_key` (was `contract_id`) and `pool_contracts.contract_key` (was
 * `contract_id`, part of the primary key and of `pool_contracts_ledger`). Both tables are rebuilt
 * from their old rows (every row converted; readers see exactly the same values, the contract ID
 * being read from the contract row). `contracts_history` (migration 2) is dropped: contract rows
 * are small since schema 4 (compressed blobs, no overflow pages), so the history joins read them
 * through the key's index instead of a covering copy of a dozen columns.
 */
const OBSERVATION_COLUMNS = `snapshot_id, pool_id, observed_at_ms, contract_key, state_contract_id, state_is_contract,
  symbol, reserve_a, reserve_b, price, tvl_cc, fee_rate, total_lp_supply, ledger_created_at, ledger_created_at_ms,
  proof_reserve_a, proof_reserve_b, blob_sha256`;

export const MIGRATION_005_CONTRACT_KEYS: readonly string[] = [
  'ALTER TABLE contracts ADD COLUMN ckey INTEGER',
  'UPDATE contracts SET ckey = rowid',
  'CREATE UNIQUE INDEX contracts_key ON contracts (ckey)',
  'DROP INDEX contracts_history',
  `CREATE TABLE observations_v5 (
     snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
     pool_id TEXT NOT NULL,
     observed_at_ms INTEGER NOT NULL,
     contract_key INTEGER REFERENCES contracts (ckey),
     state_contract_id TEXT,
     state_is_contract INTEGER NOT NULL DEFAULT 0,
     symbol TEXT,
     reserve_a TEXT,
     reserve_b TEXT,
     price TEXT,
     tvl_cc TEXT,
     fee_rate TEXT,
     total_lp_supply TEXT,
     ledger_created_at TEXT,
     ledger_created_at_ms INTEGER,
     proof_reserve_a TEXT,
     proof_reserve_b TEXT,
     blob_sha256 TEXT,
     PRIMARY KEY (snapshot_id, pool_id)
   ) WITHOUT ROWID`,
  `INSERT INTO observations_v5 (${OBSERVATION_COLUMNS})
   SELECT o.snapshot_id, o.pool_id, o.observed_at_ms, c.ckey, o.state_contract_id, o.state_is_contract, o.symbol,
     o.reserve_a, o.reserve_b, o.price, o.tvl_cc, o.fee_rate, o.total_lp_supply, o.ledger_created_at,
     o.ledger_created_at_ms, o.proof_reserve_a, o.proof_reserve_b, o.blob_sha256
   FROM observations o LEFT JOIN contracts c ON c.contract_id = o.contract_id`,
  'DROP TABLE observations',
  'ALTER TABLE observations_v5 RENAME TO observations',
  'CREATE INDEX observations_pool ON observations (pool_id, observed_at_ms)',
  `CREATE TABLE pool_contracts_v5 (
     pool_id TEXT NOT NULL,
     contract_key INTEGER NOT NULL REFERENCES contracts (ckey),
     first_snapshot_id INTEGER NOT NULL,
     first_observed_at_ms INTEGER NOT NULL,
     first_ledger_created_at TEXT,
     first_ledger_created_at_ms INTEGER,
     PRIMARY KEY (pool_id, contract_key)
   ) WITHOUT ROWID`,
  `INSERT INTO pool_contracts_v5 (pool_id, contract_key, first_snapshot_id, first_observed_at_ms,
     first_ledger_created_at, first_ledger_created_at_ms)
   SELECT pc.pool_id, c.ckey, pc.first_snapshot_id, pc.first_observed_at_ms, pc.first_ledger_created_at,
     pc.first_ledger_created_at_ms
   FROM pool_contracts pc JOIN contracts c ON c.contract_id = pc.contract_id`,
  'DROP TABLE pool_contracts',
  'ALTER TABLE pool_contracts_v5 RENAME TO pool_contracts',
  'CREATE INDEX pool_contracts_ledger ON pool_contracts (pool_id, first_ledger_created_at_ms)',
];
