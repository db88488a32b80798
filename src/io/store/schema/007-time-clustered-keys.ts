/**
 * Mirror schema v7 (docs/mirror.md "Time-clustered keys"): fewer b-trees whose insert points are
 * spread over the file. In a big mirror each new contract of a snapshot landed in its own leaf of
 * every index keyed by pool first — one scattered page per pool per snapshot, which the WAL
 * checkpoint then wrote back all over the file (the record phase's growth with the mirror's length,
 * docs/bench/mirror.md). Two of the three such trees on the contract side go:
 * - `contracts_pool` (`pool_id`, `created_at_ms`) is dropped: only a replay restricted to one pool
 *   read through it; that read now walks the period through `contracts_created` (time order) and
 *   keeps the pool's rows;
 * - `pool_contracts` is re-keyed (`contract_key`, `pool_id`) instead of (`pool_id`, `contract_key`):
 *   contract keys grow with time, so a snapshot's new rows are appended; every read of it is by
 *   contract key (the point of a contract in a pool, the pools of changed contracts) or through
 *   `pool_contracts_ledger` (pool, ledger time), which stays. Every row is copied; reads are the same.
 * And on the raw side `responses_body` (`body_sha256`: a random digest, one scattered leaf per new
 * body) is dropped: only pruning reads responses by body, and it builds that index for its own
 * transaction (../maintenance.ts).
 */
import type { SchemaStep } from './dialect.js';
export const TIME_CLUSTERED_KEYS: SchemaStep = {
  name: 'time-clustered-keys',
  sqlite: [
    'DROP INDEX contracts_pool',
    'DROP INDEX responses_body',
    `CREATE TABLE pool_contracts_v7 (
     pool_id TEXT NOT NULL,
     contract_key INTEGER NOT NULL REFERENCES contracts (ckey),
     first_snapshot_id INTEGER NOT NULL,
     first_observed_at_ms INTEGER NOT NULL,
     first_ledger_created_at TEXT,
     first_ledger_created_at_ms INTEGER,
     PRIMARY KEY (contract_key, pool_id)
   ) WITHOUT ROWID`,
    `INSERT INTO pool_contracts_v7 (pool_id, contract_key, first_snapshot_id, first_observed_at_ms,
     first_ledger_created_at, first_ledger_created_at_ms)
   SELECT pool_id, contract_key, first_snapshot_id, first_observed_at_ms, first_ledger_created_at,
     first_ledger_created_at_ms
   FROM pool_contracts ORDER BY contract_key, pool_id`,
    'DROP TABLE pool_contracts',
    'ALTER TABLE pool_contracts_v7 RENAME TO pool_contracts',
    'CREATE INDEX pool_contracts_ledger ON pool_contracts (pool_id, first_ledger_created_at_ms)',
  ],
  postgres: [
    'DROP INDEX contracts_pool',
    'DROP INDEX responses_body',
    'ALTER TABLE pool_contracts DROP CONSTRAINT pool_contracts_pkey, ADD PRIMARY KEY (contract_key, pool_id)',
  ],
};
