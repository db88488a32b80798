/**
 * The `mirror` maintenance pipelines (docs/mirror.md "Size and retention"): statistics of a mirror,
 * and pruning raw responses older than a retention window followed by a VACUUM. Each returns a
 * report; never an exit code, never stdout.
 */

import { StoreError } from '../errors/store.js';
import {
  type ArchiveResult,
  isArchivingStore,
  type MirrorStats,
  type MirrorStore,
  openMirrorStore,
  type PruneResult,
} from '../io/store/index.js';
import { openMirrorForReading } from './history.js';
import { RETENTION_INTERVAL_MS, type RetentionPolicy } from './retention-policy.js';

/** Size by table, snapshots, pools, contracts and time span of the mirror at `path`. */
export async function runMirrorStats(path: string): Promise<MirrorStats> {
  const mirror = await openMirrorForReading(path);
  try {
    return await mirror.readMirrorStats();
  } finally {
    await mirror.close();
  }
}

export interface MirrorPruneOptions {
  readonly path: string;
  /** keep the raw responses of snapshots started less than this long ago */
  readonly keepRawMs: number;
  /** also archive contracts and observations recorded longer ago than this (SQLite; docs/mirror.md "Archive") */
  readonly archiveMs?: number;
  /** rebuild the file afterwards to return the freed pages (default true) */
  readonly vacuum?: boolean;
  readonly now?: () => number;
}

export interface MirrorPruneReport {
  readonly cutoffMs: number;
  readonly pruned: PruneResult;
  /** null when not asked for (--archive) */
  readonly archived: (ArchiveResult & { readonly cutoffMs: number }) | null;
  /** null when not vacuumed */
  readonly vacuum: { readonly beforeBytes: number; readonly afterBytes: number } | null;
  readonly stats: MirrorStats;
}

/** Prunes the raw responses older than the window (and archives), then vacuums (one writer at a time). */
export async function runMirrorPrune(o: MirrorPruneOptions): Promise<MirrorPruneReport> {
  // the mirror must exist: refuse to create an empty one
  await (await openMirrorForReading(o.path)).close();
  const mirror = await openMirrorStore(o.path);
  try {
    if (o.archiveMs !== undefined && !isArchivingStore(mirror))
      throw new StoreError(
        'STORE_WRITE_FAILED',
        `archiving expected an SQLite mirror, got ${mirror.backend} (it keeps every row; docs/mirror.md "Archive")`,
      );
    const r = await applyRetention(
      mirror,
      { keepRawMs: o.keepRawMs, archiveAfterMs: o.archiveMs ?? null },
      (o.now ?? Date.now)(),
    );
    const vacuum = o.vacuum === false ? null : await mirror.vacuumMirror();
    return {
      cutoffMs: r.cutoffMs,
      pruned: r.pruned,
      archived: r.archived,
      vacuum,
      stats: await mirror.readMirrorStats(),
    };
  } finally {
    await mirror.close();
  }
}

export interface RetentionReport {
  /** raw responses of snapshots started before this were removed (null: raw kept) */
  readonly cutoffMs: number;
  readonly pruned: PruneResult;
  /** null when the policy archives nothing or the backend cannot archive */
  readonly archived: (ArchiveResult & { readonly cutoffMs: number }) | null;
  /** why the archive step was skipped (a PostgreSQL mirror), or null */
  readonly archiveSkipped: string | null;
}

const NOTHING_PRUNED: PruneResult = { snapshots: 0, responses: 0, bodies: 0, bodyBytes: 0 };

/**
 * Applies `policy` to an open mirror at `nowMs` (no VACUUM: freed pages are reused by the next
 * snapshots, so a mirror under a policy stops growing without rebuilding the file).
 */
export async function applyRetention(
  mirror: MirrorStore,
  policy: RetentionPolicy,
  nowMs: number,
): Promise<RetentionReport> {
  const cutoffMs = policy.keepRawMs === null ? Number.NEGATIVE_INFINITY : nowMs - policy.keepRawMs;
  const pruned = policy.keepRawMs === null ? NOTHING_PRUNED : await mirror.pruneRawResponses(cutoffMs);
  if (policy.archiveAfterMs === null) return { cutoffMs, pruned, archived: null, archiveSkipped: null };
  if (!isArchivingStore(mirror))
    return {
      cutoffMs,
      pruned,
      archived: null,
      archiveSkipped: `a ${mirror.backend} mirror keeps every row (archiving is SQLite's)`,
    };
  const archiveCutoffMs = nowMs - policy.archiveAfterMs;
  return {
    cutoffMs,
    pruned,
    archived: { cutoffMs: archiveCutoffMs, ...(await mirror.archiveMirror(archiveCutoffMs)) },
    archiveSkipped: null,
  };
}

/** Is the retention policy due, last applied at `lastMs` (null: never in this process)? */
export function isRetentionDue(lastMs: number | null, nowMs: number): boolean {
  return lastMs === null || nowMs - lastMs >= RETENTION_INTERVAL_MS;
}

/** How fast a mirror grows: its used bytes over the span of its snapshots, and where that leads. */
export interface MirrorGrowth {
  readonly bytesPerDay: number;
  /** used bytes 30 days after the last snapshot, at this rate and with nothing pruned */
  readonly projected30dBytes: number;
}

/** The growth of a mirror from its statistics; null when its snapshots span less than an hour. */
export function computeMirrorGrowth(s: MirrorStats): MirrorGrowth | null {
  if (s.firstSnapshotMs === null || s.lastSnapshotMs === null) return null;
  const spanMs = s.lastSnapshotMs - s.firstSnapshotMs;
  if (spanMs < 3_600_000) return null;
  const used = s.fileBytes - s.freeBytes;
  const bytesPerDay = Math.round((used / spanMs) * 86_400_000);
  return { bytesPerDay, projected30dBytes: used + 30 * bytesPerDay };
}
