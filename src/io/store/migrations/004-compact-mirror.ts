/**
 * Mirror schema v4 (docs/mirror.md "A compact mirror"): per pool a blob dictionary (the first blob
 * the mirror stored for the pool), and on each contract `blob_dict`, the dictionary its blob is
 * DEFLATE-compressed with (../blob-codec.ts); on each observation `state_is_contract` (the
 * /pools/state contract ID equals the proof's: `state_contract_id` is stored NULL). Observations
 * also store NULL for `blob_sha256` / `ledger_created_at` when they equal the contract row's
 * (readers COALESCE them back, ../observation-columns.ts). Existing rows keep their values (raw
 * blobs, flag 0) and read as before; only rows recorded from now on are compact.
 */
export const MIGRATION_004_COMPACT_MIRROR: readonly string[] = [
  `CREATE TABLE blob_dictionaries (
     id INTEGER PRIMARY KEY,
     pool_id TEXT NOT NULL UNIQUE,
     dict BLOB NOT NULL
   )`,
  'ALTER TABLE contracts ADD COLUMN blob_dict INTEGER REFERENCES blob_dictionaries (id)',
  'ALTER TABLE observations ADD COLUMN state_is_contract INTEGER NOT NULL DEFAULT 0',
];
