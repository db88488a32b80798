/**
 * Mirror schema v10 (docs/mirror.md "Archive"): the tables of the archive, where `mirror prune
 * --archive` moves contracts and observations older than a retention, many to a deflated row
 * (../archive-chunks.ts). A contract chunk holds up to 256 contract rows and their `pool_contracts`
 * rows, keyed by the first contract key; `archive_contract_ids` maps the first 8 bytes of each
 * archived contract ID (as a signed 64-bit integer) to its key, the look-up by ID recording and
 * the audit start from. An observation chunk holds up to 2,048 observation rows. Rows of the same
 * tables stay where they were until archived; readers see both (../archive.ts). Empty until the
 * first `mirror prune --archive`.
 *
 * PostgreSQL: nothing. The archive is a capability of the SQLite store only (`ArchivingMirrorStore`,
 * ../mirror-store.ts); a PostgreSQL mirror keeps every row.
 */
import type { SchemaStep } from './dialect.js';
export const ARCHIVE: SchemaStep = {
  name: 'archive',
  sqlite: [
    `CREATE TABLE archive_contract_chunks (
     id INTEGER PRIMARY KEY,
     first_ckey INTEGER NOT NULL,
     last_ckey INTEGER NOT NULL,
     contracts INTEGER NOT NULL,
     body BLOB NOT NULL
   )`,
    `CREATE TABLE archive_contract_ids (
     id_prefix INTEGER NOT NULL,
     ckey INTEGER NOT NULL,
     chunk_id INTEGER NOT NULL REFERENCES archive_contract_chunks (id),
     PRIMARY KEY (id_prefix, ckey)
   ) WITHOUT ROWID`,
    `CREATE TABLE archive_observation_chunks (
     id INTEGER PRIMARY KEY,
     first_observed_at_ms INTEGER NOT NULL,
     last_observed_at_ms INTEGER NOT NULL,
     observations INTEGER NOT NULL,
     body BLOB NOT NULL
   )`,
    // bumped by every change of the archive: a connection's materialized copy of it is stale then
    'CREATE TABLE archive_state (id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL)',
    'INSERT INTO archive_state (id, revision) VALUES (1, 0)',
  ],
  postgres: [],
};
