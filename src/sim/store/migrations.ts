/**
 * Versioned schema of the reference server's ledger database (docs/protocol/api-decisions.md §3, §5).
 * Migrations are append-only: a released migration is never edited; a change is a new entry.
 * Amounts are TEXT decimal strings exactly as minted (Numeric 10); times are integers
 * (ms for events, µs for ledger creation times — both fit a JS safe integer until year 2255).
 * Applied by the one migration runner of src/io/store/migration-runner.ts.
 */
import type { Migration } from '../../io/store/migration-runner.js';

export type { Migration } from '../../io/store/migration-runner.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger',
    statements: [
      `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE tokens (
  admin               TEXT NOT NULL,
  id                  TEXT NOT NULL,
  name                TEXT NOT NULL,
  symbol              TEXT NOT NULL,
  price_aggregator_id TEXT,
  ord                 INTEGER NOT NULL UNIQUE,
  PRIMARY KEY (admin, id)
) STRICT;

CREATE TABLE ledger_updates (
  update_id     TEXT PRIMARY KEY,
  seq           INTEGER NOT NULL UNIQUE,
  kind          TEXT NOT NULL CHECK (kind IN ('genesis', 'swap', 'liquidity_add', 'liquidity_remove', 'retire')),
  record_micros INTEGER NOT NULL
) STRICT;

CREATE TABLE pools (
  pool_id             TEXT PRIMARY KEY,
  ord                 INTEGER NOT NULL UNIQUE,
  token_a_admin       TEXT NOT NULL,
  token_a_id          TEXT NOT NULL,
  token_b_admin       TEXT NOT NULL,
  token_b_id          TEXT NOT NULL,
  fee_rate            TEXT NOT NULL,
  admin_fee_share     TEXT NOT NULL,
  active              INTEGER NOT NULL CHECK (active IN (0, 1)),
  current_contract_id TEXT,
  FOREIGN KEY (token_a_admin, token_a_id) REFERENCES tokens (admin, id),
  FOREIGN KEY (token_b_admin, token_b_id) REFERENCES tokens (admin, id),
  FOREIGN KEY (current_contract_id) REFERENCES reserve_contracts (contract_id) DEFERRABLE INITIALLY DEFERRED
) STRICT;

CREATE TABLE reserve_contracts (
  contract_id       TEXT PRIMARY KEY,
  pool_id           TEXT NOT NULL REFERENCES pools (pool_id),
  sequence          INTEGER NOT NULL,
  previous          TEXT REFERENCES reserve_contracts (contract_id),
  id_version        TEXT NOT NULL CHECK (id_version IN ('v10', 'v11', 'v12')),
  update_id         TEXT NOT NULL REFERENCES ledger_updates (update_id),
  created_at_micros INTEGER NOT NULL,
  archived_by       TEXT REFERENCES ledger_updates (update_id),
  reserve_a         TEXT NOT NULL,
  reserve_b         TEXT NOT NULL,
  total_lp_supply   TEXT NOT NULL,
  fee_rate          TEXT NOT NULL,
  blob              BLOB NOT NULL,
  UNIQUE (pool_id, sequence)
) STRICT;

CREATE TABLE traders (
  trader_id INTEGER PRIMARY KEY,
  party     TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE transfers (
  seq               INTEGER PRIMARY KEY,
  ts_ms             INTEGER NOT NULL,
  sender            TEXT NOT NULL,
  instrument_admin  TEXT NOT NULL,
  instrument_id     TEXT NOT NULL,
  amount            TEXT NOT NULL,
  memo              TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('executed', 'refunded')),
  reason            TEXT,
  out_admin         TEXT NOT NULL,
  out_id            TEXT NOT NULL,
  out_amount        TEXT NOT NULL,
  update_id         TEXT REFERENCES ledger_updates (update_id)
) STRICT;

CREATE TABLE swap_events (
  seq               INTEGER PRIMARY KEY,
  ts_ms             INTEGER NOT NULL,
  update_id         TEXT NOT NULL REFERENCES ledger_updates (update_id),
  transfer_seq      INTEGER REFERENCES transfers (seq),
  pool_id           TEXT NOT NULL REFERENCES pools (pool_id),
  trader_id         INTEGER NOT NULL REFERENCES traders (trader_id),
  sell_admin        TEXT NOT NULL,
  sell_id           TEXT NOT NULL,
  buy_admin         TEXT NOT NULL,
  buy_id            TEXT NOT NULL,
  sell_amount       TEXT NOT NULL,
  buy_amount        TEXT NOT NULL,
  pool_fee          TEXT NOT NULL,
  protocol_fee      TEXT NOT NULL,
  lp_fee            TEXT NOT NULL,
  volume_cc         TEXT NOT NULL,
  fee_cc            TEXT NOT NULL,
  protocol_fee_cc   TEXT NOT NULL,
  lp_fee_cc         TEXT NOT NULL,
  base_amount       TEXT NOT NULL,
  quote_amount      TEXT NOT NULL,
  price_after       TEXT NOT NULL,
  execution_seconds TEXT NOT NULL
) STRICT;
CREATE INDEX swap_events_ts ON swap_events (ts_ms);
CREATE INDEX swap_events_trader_ts ON swap_events (trader_id, ts_ms);

CREATE TABLE liquidity_events (
  seq        INTEGER PRIMARY KEY,
  ts_ms      INTEGER NOT NULL,
  update_id  TEXT NOT NULL REFERENCES ledger_updates (update_id),
  pool_id    TEXT NOT NULL REFERENCES pools (pool_id),
  provider   TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('add', 'remove')),
  amount_a   TEXT NOT NULL,
  amount_b   TEXT NOT NULL,
  lp_amount  TEXT NOT NULL
) STRICT;

CREATE TABLE lp_positions (
  pool_id  TEXT NOT NULL REFERENCES pools (pool_id),
  provider TEXT NOT NULL,
  amount   TEXT NOT NULL,
  PRIMARY KEY (pool_id, provider)
) STRICT;
`,
    ],
  },
  {
    version: 2,
    name: 'ledger_api_indexes',
    // the Ledger API (src/server/ledger-api/) reads a ledger update's created and archived reserve
    // contracts by the update's id: both columns are looked up, so both are indexed
    statements: [
      `
CREATE INDEX reserve_contracts_update ON reserve_contracts (update_id);
CREATE INDEX reserve_contracts_archived_by ON reserve_contracts (archived_by);
`,
    ],
  },
];
