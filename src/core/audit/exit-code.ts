/**
 * The process exit code of an audit outcome (docs/cli.md "Exit codes"): passed → 0, failed → 1,
 * could-not-check → 2. It lives in the core so that a library pipeline (`runAudit`, `runReplay`)
 * can put it in its summary and the CLI can exit with it — one table for both
 * (src/cli/exit-codes.ts builds its constants from it).
 */
import type { AuditOutcome } from './finding.js';

/** The one outcome → exit-code table of audits and replays. */
export const AUDIT_EXIT_CODES = {
  passed: 0,
  failed: 1,
  'could-not-check': 2,
} as const satisfies Readonly<Record<AuditOutcome, number>>;

export type AuditExitCode = (typeof AUDIT_EXIT_CODES)[AuditOutcome];

/** passed → 0, failed → 1, could-not-check → 2. */
export function computeAuditExitCode(outcome: AuditOutcome): AuditExitCode {
  return AUDIT_EXIT_CODES[outcome];
}
