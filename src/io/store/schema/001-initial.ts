/**
 * Mirror schema v1 (docs/decisions/mirror.md): content-addressed response bodies, snapshots with
 * their responses, reserve contracts by contract ID, per-pool observations, audit runs and
 * their findings. Amounts are stored as the decimal strings the API published (TEXT), never REAL.
 * One text for both dialects (./dialect.ts); PostgreSQL's pool index also holds the snapshot id.
 */
import { type Dialect, WORDS } from './dialect.js';

export function buildInitialSql(dialect: Dialect): string[] {
  const { big, bytes, id, serial, clustered } = WORDS[dialect];
  return [
    `CREATE TABLE bodies (
     sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
     size INTEGER NOT NULL,
     body ${bytes} NOT NULL
   )${clustered}`,
    `CREATE TABLE snapshots (
     id ${serial},
     snapshot_key TEXT NOT NULL UNIQUE,
     base_url TEXT NOT NULL,
     started_at_ms ${big} NOT NULL,
     finished_at_ms ${big} NOT NULL,
     recorded_at_ms ${big} NOT NULL,
     pool_count INTEGER NOT NULL,
     new_contracts INTEGER NOT NULL,
     failed_sections TEXT NOT NULL
   )`,
    'CREATE INDEX snapshots_started ON snapshots (started_at_ms)',
    `CREATE TABLE responses (
     snapshot_id ${big} NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     url TEXT NOT NULL,
     request_body TEXT,
     status INTEGER NOT NULL,
     content_type TEXT,
     body_sha256 TEXT NOT NULL REFERENCES bodies (sha256),
     started_at_ms ${big} NOT NULL,
     duration_ms ${big} NOT NULL,
     PRIMARY KEY (snapshot_id, seq)
   )${clustered}`,
    'CREATE INDEX responses_body ON responses (body_sha256)',
    `CREATE TABLE contracts (
     contract_id ${id} PRIMARY KEY,
     pool_id ${id} NOT NULL,
     blob ${bytes} NOT NULL,
     blob_sha256 TEXT NOT NULL,
     update_id TEXT NOT NULL,
     package_id TEXT NOT NULL,
     package_name TEXT NOT NULL,
     module_name TEXT NOT NULL,
     entity_name TEXT NOT NULL,
     reserve_a TEXT NOT NULL,
     reserve_b TEXT NOT NULL,
     total_lp_supply TEXT NOT NULL,
     ledger_created_at TEXT NOT NULL,
     created_at_ms ${big} NOT NULL,
     created_at_micros ${big} NOT NULL,
     fields_source TEXT NOT NULL CHECK (fields_source IN ('blob', 'published')),
     verification_status TEXT NOT NULL
       CHECK (verification_status IN ('verified', 'mismatch', 'could-not-check', 'unchecked')),
     verification_reason TEXT,
     first_seen_snapshot ${big} NOT NULL REFERENCES snapshots (id),
     last_seen_snapshot ${big} NOT NULL REFERENCES snapshots (id),
     first_seen_ms ${big} NOT NULL,
     last_seen_ms ${big} NOT NULL
   )`,
    'CREATE INDEX contracts_created ON contracts (created_at_ms, contract_id)',
    'CREATE INDEX contracts_pool ON contracts (pool_id, created_at_ms)',
    `CREATE TABLE observations (
     snapshot_id ${big} NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
     pool_id ${id} NOT NULL,
     observed_at_ms ${big} NOT NULL,
     contract_id ${id} REFERENCES contracts (contract_id),
     state_contract_id TEXT,
     symbol TEXT,
     reserve_a TEXT,
     reserve_b TEXT,
     price TEXT,
     tvl_cc TEXT,
     fee_rate TEXT,
     total_lp_supply TEXT,
     ledger_created_at TEXT,
     ledger_created_at_ms ${big},
     proof_reserve_a TEXT,
     proof_reserve_b TEXT,
     blob_sha256 TEXT,
     PRIMARY KEY (snapshot_id, pool_id)
   )${clustered}`,
    `CREATE INDEX observations_pool ON observations (pool_id, observed_at_ms${dialect === 'postgres' ? ', snapshot_id' : ''})`,
    `CREATE TABLE audit_runs (
     id ${serial},
     run_key TEXT UNIQUE,
     snapshot_id ${big} REFERENCES snapshots (id),
     base_url TEXT NOT NULL,
     started_at_ms ${big} NOT NULL,
     finished_at_ms ${big} NOT NULL,
     outcome TEXT NOT NULL,
     checks_json TEXT NOT NULL,
     summary_json TEXT NOT NULL
   )`,
    `CREATE TABLE findings (
     audit_run_id ${big} NOT NULL REFERENCES audit_runs (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     code TEXT NOT NULL,
     severity TEXT NOT NULL,
     pool TEXT,
     area TEXT,
     label TEXT NOT NULL,
     message TEXT NOT NULL,
     evidence_json TEXT NOT NULL,
     PRIMARY KEY (audit_run_id, seq)
   )${clustered}`,
    'CREATE INDEX findings_code ON findings (code)',
  ];
}
