/**
 * A mirror's retention policy (docs/mirror.md "Retention") and the default that the long-running
 * commands (`snapshot --every`, `watch`) apply: how long raw responses are kept, and after how long
 * contracts and observations move into the archive's compressed chunks (SQLite). Its own file, with
 * no imports, so option parsing reads the defaults without loading a database driver; applied by
 * `applyRetention` (./mirror.ts).
 */

/** `null` keeps everything of that kind. */
export interface RetentionPolicy {
  readonly keepRawMs: number | null;
  readonly archiveAfterMs: number | null;
}

const DAY_MS = 86_400_000;

/** What `watch` and `snapshot --every` apply unless told otherwise: raw 7 days, archive after 30. */
export const DEFAULT_RETENTION: RetentionPolicy = { keepRawMs: 7 * DAY_MS, archiveAfterMs: 30 * DAY_MS };

/** How often a long-running command applies its policy (the work is proportional to what expired). */
export const RETENTION_INTERVAL_MS = 3_600_000;
