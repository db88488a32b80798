/**
 * The retention policy of the long-running commands (`watch`; docs/watch.md "A bounded mirror"):
 * the raw responses of snapshots older than `keepRawMs` are dropped, and on an SQLite mirror the
 * contracts and observations recorded more than `archiveAfterMs` ago move into the archive's
 * compressed chunks (docs/mirror.md "Size and retention", "Archive"). No VACUUM: the pages freed are
 * reused by the next snapshots, so the file stops growing instead of shrinking (a VACUUM rewrites
 * the whole file under a write lock: `mirror prune` does it when asked). Returns what it did.
 */
import {
  type ArchiveResult,
  isArchivingStore,
  type MirrorStore,
  type PruneResult,
} from '../io/store/index.js';

export interface RetentionPolicy {
  /** keep the raw responses of the snapshots of this last period */
  readonly keepRawMs: number;
  /** archive contracts and observations older than this (SQLite mirrors; null = never) */
  readonly archiveAfterMs: number | null;
}

export interface RetentionReport {
  readonly pruned: PruneResult;
  /** null when the policy does not archive or the mirror cannot (PostgreSQL keeps every row) */
  readonly archived: ArchiveResult | null;
}

/** Applies the policy at `nowMs`. */
export async function runRetention(
  mirror: MirrorStore,
  policy: RetentionPolicy,
  nowMs: number,
): Promise<RetentionReport> {
  const pruned = await mirror.pruneRawResponses(nowMs - policy.keepRawMs);
  const archived =
    policy.archiveAfterMs === null || !isArchivingStore(mirror)
      ? null
      : await mirror.archiveMirror(nowMs - policy.archiveAfterMs);
  return { pruned, archived };
}
