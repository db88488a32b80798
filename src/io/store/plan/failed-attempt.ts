/**
 * Whether a snapshot is history or a failed attempt (docs/mirror.md "Failed attempts"): a pure rule
 * of the snapshot and one fact about the mirror, applied by both appliers before they plan any row.
 * A snapshot in which every requested section failed (a wrong URL, the exchange down), or that
 * observed no pool while the mirror already knew pools (an empty answer is not a market that
 * vanished), says nothing about the exchange's reserves: recording it as a snapshot would make the
 * history checks count it ("history: 3 earlier snapshots" when one held data). It is kept as a failed
 * attempt — when, where, why — and never read as history.
 */
import type { ApiSnapshot } from '../../../core/wire/index.js';
import { API_SNAPSHOT_SECTIONS, computeFailedSections } from '../../../core/wire/index.js';
import { computeObservedPools } from './snapshot-plan.js';

export interface FailedAttempt {
  /** one sentence: why the snapshot is not history */
  readonly reason: string;
  /** the sections that failed, in fetch order */
  readonly failedSections: readonly string[];
}

/**
 * The failed attempt `snapshot` is, or null when it is history. `mirrorKnowsPools`: the mirror
 * holds an earlier snapshot that observed at least one pool.
 */
export function computeFailedAttempt(snapshot: ApiSnapshot, mirrorKnowsPools: boolean): FailedAttempt | null {
  const failed = computeFailedSections(snapshot);
  const requested = API_SNAPSHOT_SECTIONS.filter((k) => snapshot[k] !== null).length;
  if (requested > 0 && failed.length === requested)
    return {
      reason: `every requested section failed (${failed.length} of ${requested})`,
      failedSections: failed,
    };
  if (mirrorKnowsPools && computeObservedPools(snapshot).size === 0)
    return {
      reason: 'no pool observed although earlier snapshots of the mirror observed pools',
      failedSections: failed,
    };
  return null;
}
