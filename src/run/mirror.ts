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
  openMirrorStore,
  type PruneResult,
} from '../io/store/index.js';
import { openMirrorForReading } from './history.js';

/** How fast a mirror grew over its snapshots' time span, and where that rate leads (issue 27 item 4). */
export interface MirrorGrowth {
  /** the file's bytes ÷ the days between the first and the last snapshot */
  readonly bytesPerDay: number;
  /** the file's size 30 days on at that rate (a retention policy bends it down: docs/watch.md) */
  readonly projected30DaysBytes: number;
}

const DAY_MS = 86_400_000;
/** a span shorter than this says nothing about a daily rate */
const MIN_GROWTH_SPAN_MS = 3_600_000;

/** The growth of a mirror from its stats; null below two snapshots or an hour of span. */
export function computeMirrorGrowth(s: MirrorStats): MirrorGrowth | null {
  if (s.firstSnapshotMs === null || s.lastSnapshotMs === null || s.snapshots < 2) return null;
  const span = s.lastSnapshotMs - s.firstSnapshotMs;
  if (span < MIN_GROWTH_SPAN_MS) return null;
  const bytesPerDay = Math.round((s.fileBytes * DAY_MS) / span);
  return { bytesPerDay, projected30DaysBytes: s.fileBytes + 30 * bytesPerDay };
}

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

/** Prunes the raw responses older than the window, then vacuums (one writer at a time). */
export async function runMirrorPrune(o: MirrorPruneOptions): Promise<MirrorPruneReport> {
  // the mirror must exist: refuse to create an empty one
  await (await openMirrorForReading(o.path)).close();
  const mirror = await openMirrorStore(o.path);
  try {
    const cutoffMs = (o.now ?? Date.now)() - o.keepRawMs;
    const pruned = await mirror.pruneRawResponses(cutoffMs);
    const archiveCutoffMs = o.archiveMs === undefined ? null : (o.now ?? Date.now)() - o.archiveMs;
    if (archiveCutoffMs !== null && !isArchivingStore(mirror))
      throw new StoreError(
        'STORE_WRITE_FAILED',
        `archiving expected an SQLite mirror, got ${mirror.backend} (it keeps every row; docs/mirror.md "Archive")`,
      );
    const archived =
      archiveCutoffMs === null || !isArchivingStore(mirror)
        ? null
        : { cutoffMs: archiveCutoffMs, ...(await mirror.archiveMirror(archiveCutoffMs)) };
    const vacuum = o.vacuum === false ? null : await mirror.vacuumMirror();
    return { cutoffMs, pruned, archived, vacuum, stats: await mirror.readMirrorStats() };
  } finally {
    await mirror.close();
  }
}
