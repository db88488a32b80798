/**
 * Mirror schema v4 (docs/mirror.md "Compact blobs"): per pool a blob dictionary (the first blob the
 * mirror stored for the pool), and on each contract `blob_dict`, the dictionary its blob is
 * DEFLATE-compressed with (../blob-codec.ts). Existing rows keep NULL — stored raw — and read as
 * before; only blobs recorded from now on are compressed.
 */
export const MIGRATION_004_BLOB_DICTIONARIES: readonly string[] = [
  `CREATE TABLE blob_dictionaries (
     id INTEGER PRIMARY KEY,
     pool_id TEXT NOT NULL UNIQUE,
     dict BLOB NOT NULL
   )`,
  'ALTER TABLE contracts ADD COLUMN blob_dict INTEGER REFERENCES blob_dictionaries (id)',
];
