/**
 * Errors of distributed `replay` (docs/mirror.md "Distributed replay"): a run was asked of a
 * SQLite mirror, or could not complete. The replay then cannot vouch for every contract, so the
 * CLI maps these to exit code 2 (could not check).
 */
import { ReserveAuditError } from './base.js';

export type ReplayErrorCode =
  /** `replay --run` / `--worker` (distributed replay) need a shared PostgreSQL mirror */
  | 'REPLAY_NEEDS_SHARED_MIRROR'
  /** a distributed replay run could not complete (its batches' results unreadable, the run abandoned) */
  | 'REPLAY_RUN_FAILED';

export class ReplayError extends ReserveAuditError<ReplayErrorCode> {
  override name = 'ReplayError';
}
