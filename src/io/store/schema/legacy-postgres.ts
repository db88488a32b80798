/**
 * PostgreSQL mirrors written before the one version list (./versions.ts) numbered their versions
 * differently: 4 was the replay queue, and SQLite's 4–7 were their 5–8, with the same DDL. This
 * frozen step renumbers such a mirror's `migrations` rows to the list's numbers — 4 → 11 and
 * 5–8 → 4–7 — in one transaction before the pending versions (8–10) are applied; no table is touched.
 * A mirror is of that kind when its version 4 is named "replay-queue".
 */

/** The query that tells a legacy-numbered mirror (one row when it is one). */
export const LEGACY_POSTGRES_PROBE_SQL =
  "SELECT 1 FROM migrations WHERE version = 4 AND name = 'replay-queue'";

/** The statements that renumber it (one transaction). */
export const LEGACY_POSTGRES_RENUMBER_SQL: readonly string[] = [
  'UPDATE migrations SET version = -version WHERE version BETWEEN 4 AND 8',
  'UPDATE migrations SET version = CASE WHEN version = -4 THEN 11 ELSE -version - 1 END WHERE version < 0',
];
