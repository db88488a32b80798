/**
 * The `mirror` maintenance pipelines (docs/mirror.md "Size and retention"): statistics of a mirror,
 * and pruning raw responses older than a retention window followed by a VACUUM. Each returns a
 * report; never an exit code, never stdout.
 */
import {
  computeMirrorStats,
  type MirrorStats,
  openMirror,
  type PruneResult,
  pruneRawResponses,
  vacuumMirror,
} from '../io/store/index.js';
import { openMirrorForReading } from './history.js';

/** Size by table, snapshots, pools, contracts and time span of the mirror at `path`. */
export function runMirrorStats(path: string): MirrorStats {
  const mirror = openMirrorForReading(path);
  try {
    return computeMirrorStats(mirror);
  } finally {
    mirror.close();
  }
}

export interface MirrorPruneOptions {
  readonly path: string;
  /** keep the raw responses of snapshots started less than this long ago */
  readonly keepRawMs: number;
  /** rebuild the file afterwards to return the freed pages (default true) */
  readonly vacuum?: boolean;
  readonly now?: () => number;
}

export interface MirrorPruneReport {
  readonly cutoffMs: number;
  readonly pruned: PruneResult;
  /** null when not vacuumed */
  readonly vacuum: { readonly beforeBytes: number; readonly afterBytes: number } | null;
  readonly stats: MirrorStats;
}

/** Prunes the raw responses older than the window, then vacuums (one writer at a time). */
export function runMirrorPrune(o: MirrorPruneOptions): MirrorPruneReport {
  // the file must exist: refuse to create an empty mirror
  openMirrorForReading(o.path).close();
  const mirror = openMirror(o.path);
  try {
    const cutoffMs = (o.now ?? Date.now)() - o.keepRawMs;
    const pruned = pruneRawResponses(mirror, cutoffMs);
    const vacuum = o.vacuum === false ? null : vacuumMirror(mirror);
    return { cutoffMs, pruned, vacuum, stats: computeMirrorStats(mirror) };
  } finally {
    mirror.close();
  }
}
