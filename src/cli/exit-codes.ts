/**
 * The one map from outcomes to process exit codes, shared by every command:
 * 0 = verified / all checks passed, 1 = a check failed (mismatch, finding),
 * 2 = could not check (bad input, unsupported version, missing types, network failure).
 */
import { isReserveAuditError } from '../errors/base.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_COULD_NOT_CHECK = 2;

/** Prints an error to stderr as one line with its code and returns the exit code for it. */
export function reportError(e: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  if (isReserveAuditError(e)) {
    stderr.write(`reserve-audit: could not check: ${e.message}\n`);
  } else {
    const msg = e instanceof Error ? e.message : String(e);
    stderr.write(`reserve-audit: internal error: ${msg}\n`);
  }
  return EXIT_COULD_NOT_CHECK;
}
