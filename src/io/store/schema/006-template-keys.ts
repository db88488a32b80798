/**
 * Mirror schema v6 (docs/mirror.md "Template keys"): the four template strings of a contract
 * (`package_id`, `package_name`, `module_name`, `entity_name`; ~95 bytes, the same for every
 * contract of an exchange) move to a lookup table `templates`, and a contract row holds the integer
 * `template_key`. Every existing row is converted; readers rebuild the strings from the table
 * (`buildTemplateSql`, `readTemplates`), so they read exactly what the row held.
 *
 * `bodies` becomes a rowid table with a unique index on `sha256` (was WITHOUT ROWID, clustered by
 * the digest): a snapshot's new bodies (~2 MB at 200 pools) are appended at the end of the table
 * instead of split into random leaves all over it (in a big mirror under I/O contention that
 * made recording 2.3× what it costs in an empty file; the checkpoint of the other keyed b-trees
 * still makes it ~2× on a quiet machine: docs/bench/mirror.md).
 * Same columns, same reads; `responses.body_sha256` still references `bodies (sha256)`.
 *
 * A contract row's `blob_sha256` and `update_id` (hex) are stored as bytes (../hex-columns.ts):
 * −66 bytes a row, which brings a row under the size where six fit in a 4 KiB page.
 *
 * PostgreSQL: the lookup table only; its digests stay TEXT and its bodies keep their primary key
 * (the page-size and append concerns above are SQLite's).
 */

import { buildHexStorageSql } from '../hex-columns.js';
import { type Dialect, type SchemaStep, WORDS } from './dialect.js';

/** The lookup table, filled from the contracts, and the contracts' key column: the same in both dialects but for types. */
function buildTemplatesSql(dialect: Dialect): string[] {
  const w = WORDS[dialect];
  return [
    `CREATE TABLE templates (
     id ${w.serial},
     package_id TEXT NOT NULL,
     package_name TEXT NOT NULL,
     module_name TEXT NOT NULL,
     entity_name TEXT NOT NULL,
     UNIQUE (package_id, package_name, module_name, entity_name)
   )`,
    `INSERT INTO templates (package_id, package_name, module_name, entity_name)
   SELECT DISTINCT package_id, package_name, module_name, entity_name FROM contracts ORDER BY 1, 2, 3, 4`,
    `ALTER TABLE contracts ADD COLUMN template_key ${w.big} REFERENCES templates (id)`,
  ];
}

export const TEMPLATE_KEYS: SchemaStep = {
  name: 'template-keys',
  sqlite: [
    ...buildTemplatesSql('sqlite'),
    `UPDATE contracts SET template_key = (SELECT t.id FROM templates t WHERE t.package_id = contracts.package_id
     AND t.package_name = contracts.package_name AND t.module_name = contracts.module_name
     AND t.entity_name = contracts.entity_name)`,
    `UPDATE contracts SET blob_sha256 = ${buildHexStorageSql('blob_sha256')}, update_id = ${buildHexStorageSql('update_id')}`,
    'ALTER TABLE contracts DROP COLUMN package_id',
    'ALTER TABLE contracts DROP COLUMN package_name',
    'ALTER TABLE contracts DROP COLUMN module_name',
    'ALTER TABLE contracts DROP COLUMN entity_name',
    `CREATE TABLE bodies_v6 (
     id INTEGER PRIMARY KEY,
     sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
     size INTEGER NOT NULL,
     body BLOB NOT NULL
   )`,
    'INSERT INTO bodies_v6 (sha256, size, body) SELECT sha256, size, body FROM bodies',
    'DROP TABLE bodies',
    'ALTER TABLE bodies_v6 RENAME TO bodies',
  ],
  postgres: [
    ...buildTemplatesSql('postgres'),
    `UPDATE contracts c SET template_key = t.id FROM templates t WHERE t.package_id = c.package_id
     AND t.package_name = c.package_name AND t.module_name = c.module_name AND t.entity_name = c.entity_name`,
    `ALTER TABLE contracts DROP COLUMN package_id, DROP COLUMN package_name, DROP COLUMN module_name,
     DROP COLUMN entity_name`,
  ],
};
