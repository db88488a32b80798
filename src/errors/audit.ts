/**
 * Errors of the audit engine and its commands (the issue "reserve-audit audit"). A discrepancy
 * found by a check is NOT an error (it is a finding, src/core/audit); these errors mean the audit
 * could not run at all: a bad reserve profile, an unreachable exchange, an unusable mirror, bad
 * options. The CLI maps every one of them to exit code 2 (could not check).
 */
import { ReserveAuditError } from './base.js';

export type AuditErrorCode =
  /** a reserve profile file is not valid JSON or not the documented shape */
  | 'PROFILE_INVALID'
  /** a required endpoint (/pools/proof) could not be fetched or parsed, so nothing can be audited */
  | 'AUDIT_SOURCE_UNAVAILABLE'
  /** the mirror file is missing, unreadable or holds no data for the request */
  | 'MIRROR_UNAVAILABLE'
  /**
   * an option of a library entry point is out of range or malformed (e.g. runReplay's `fromMs`);
   * the CLI reports its own option errors as a UsageError ('OPTION_INVALID', src/errors/usage.ts)
   */
  | 'AUDIT_OPTION_INVALID';

export class AuditError extends ReserveAuditError<AuditErrorCode> {
  override name = 'AuditError';
}
