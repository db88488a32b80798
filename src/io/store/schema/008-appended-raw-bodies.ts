/**
 * Mirror schema v8 (docs/mirror.md "Appended raw bodies and period-clustered observations"): the
 * last two b-trees whose keys are random or pool-first leave the write path of a snapshot. In a big
 * mirror each of them took one scattered leaf per new entry (~260 new bodies and 200 observations a
 * snapshot at 200 pools), which the WAL commit and its checkpoint wrote back all over the file
 * (docs/bench/mirror.md "Schema 8").
 * - `bodies` loses its unique index on `sha256`: a body is stored again only if the previous
 *   snapshot had no body with the same digest (../sqlite/apply-snapshot.ts; an unchanged response, the
 *   common case of an idle exchange, still costs no new body). `responses` references the body by
 *   its row id (`body_id`) and keeps the digest (`body_sha256`) as data. Every row is copied.
 * - `observations_pool` (pool, time) becomes `observations_period` (time >> 19, pool): a snapshot's
 *   observations land in the leaves of the current ~9-minute period, and one pool's history is read
 *   one period at a time (queries.ts `readPoolHistory`); reads over every pool sort instead.
 *
 * PostgreSQL: nothing. Its bodies stay content-addressed (the primary key on `sha256`, inserted with
 * the digests it already holds left out) and `observations_pool` serves its pool reads: the
 * scattered leaves this version removes are a cost of SQLite's WAL checkpoint.
 */
import type { SchemaStep } from './dialect.js';

/** The observation period of `observations_period`, as the SQL expression the index holds. */
export const OBSERVATION_PERIOD_SQL = 'observed_at_ms >> 19';
/** The same period in JS (2^19 ms ≈ 8.7 minutes). */
export const OBSERVATION_PERIOD_SHIFT = 19;

export const APPENDED_RAW_BODIES: SchemaStep = {
  name: 'appended-raw-bodies',
  sqlite: [
    `CREATE TABLE bodies_v8 (
     id INTEGER PRIMARY KEY,
     sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
     size INTEGER NOT NULL,
     body BLOB NOT NULL
   )`,
    'INSERT INTO bodies_v8 (id, sha256, size, body) SELECT id, sha256, size, body FROM bodies ORDER BY id',
    `CREATE TABLE responses_v8 (
     snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     url TEXT NOT NULL,
     request_body TEXT,
     status INTEGER NOT NULL,
     content_type TEXT,
     body_sha256 TEXT NOT NULL,
     body_id INTEGER NOT NULL REFERENCES bodies (id),
     started_at_ms INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL,
     PRIMARY KEY (snapshot_id, seq)
   ) WITHOUT ROWID`,
    `INSERT INTO responses_v8 (snapshot_id, seq, method, url, request_body, status, content_type, body_sha256,
     body_id, started_at_ms, duration_ms)
   SELECT r.snapshot_id, r.seq, r.method, r.url, r.request_body, r.status, r.content_type, r.body_sha256,
     b.id, r.started_at_ms, r.duration_ms
   FROM responses r JOIN bodies b ON b.sha256 = r.body_sha256 ORDER BY r.snapshot_id, r.seq`,
    'DROP TABLE responses',
    'DROP TABLE bodies',
    'ALTER TABLE bodies_v8 RENAME TO bodies',
    'ALTER TABLE responses_v8 RENAME TO responses',
    'DROP INDEX observations_pool',
    `CREATE INDEX observations_period ON observations (${OBSERVATION_PERIOD_SQL}, pool_id)`,
  ],
  postgres: [],
};
