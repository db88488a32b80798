/**
 * Mirror schema v9 (docs/mirror.md "Settled pool contracts"): the last b-tree keyed pool-first on a
 * snapshot's write path, `pool_contracts_ledger` (pool, ledger time) over every contract a pool ever
 * had, took one scattered leaf per pool and snapshot in a big mirror. An audit only reads, per pool,
 * the contracts created within the market horizon and the two newest verified ones before it
 * (../sqlite/apply-history.ts `readHistoryPast`), so the index now holds only the rows that can still be
 * among them: `settled` = 0. Rows created more than the horizon (and a slack) before the newest
 * snapshot are settled by each recorded snapshot, except each pool's two newest verified ones
 * (../settled-contracts.ts); `history_state.settled_below_ms` is that watermark, and an audit whose
 * horizon lies before it reads the whole history instead. The index is built with only the rows
 * without a ledger time settled; the next recorded snapshot settles the rest.
 *
 * PostgreSQL: nothing yet. Its history reads take the newest rows per pool with one windowed query
 * over `pool_contracts_ledger` (../postgres/apply-history.ts), which every row stays in.
 */
import type { SchemaStep } from './dialect.js';
export const SETTLED_POOL_CONTRACTS: SchemaStep = {
  name: 'settled-pool-contracts',
  sqlite: [
    'ALTER TABLE pool_contracts ADD COLUMN settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))',
    // no ledger time: no audit reads the row
    'UPDATE pool_contracts SET settled = 1 WHERE first_ledger_created_at_ms IS NULL',
    'DROP INDEX pool_contracts_ledger',
    `CREATE INDEX pool_contracts_unsettled ON pool_contracts (pool_id, first_ledger_created_at_ms)
   WHERE settled = 0`,
    'ALTER TABLE history_state ADD COLUMN settled_below_ms INTEGER',
  ],
  postgres: [],
};
