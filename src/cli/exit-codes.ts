/**
 * THE one map from outcomes to process exit codes; every command returns its code through a
 * function of this file and nowhere else (pipelines in src/run return reports, never exit codes):
 *   0 = verified / all checks passed,
 *   1 = a check failed (mismatch, finding),
 *   2 = could not check (usage error, bad input, unsupported version, missing types, network),
 *   3 = internal error: a bug — anything thrown that is not a `ReserveAuditError`.
 */
import type { AuditOutcome } from '../core/audit/index.js';
import type { VerificationStatus } from '../core/hash/verify-contract-id.js';
import { isReserveAuditError } from '../errors/base.js';
import { isUsageError } from '../errors/usage.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_COULD_NOT_CHECK = 2;
export const EXIT_INTERNAL_ERROR = 3;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_COULD_NOT_CHECK
  | typeof EXIT_INTERNAL_ERROR;

/** audit, replay, demo: passed → 0, failed → 1, could-not-check → 2. */
export function exitCodeOf(outcome: AuditOutcome): ExitCode {
  switch (outcome) {
    case 'passed':
      return EXIT_OK;
    case 'failed':
      return EXIT_FAILED;
    case 'could-not-check':
      return EXIT_COULD_NOT_CHECK;
  }
}

/** verify-contract: verified → 0, mismatch → 1, could-not-check → 2. */
export function exitCodeOfVerification(status: VerificationStatus): ExitCode {
  switch (status) {
    case 'verified':
      return EXIT_OK;
    case 'mismatch':
      return EXIT_FAILED;
    case 'could-not-check':
      return EXIT_COULD_NOT_CHECK;
  }
}

/**
 * snapshot: 0 when every snapshot was recorded completely, 2 when one could not be fetched in
 * full (a failed endpoint, a network error). A mismatching contract is recorded, not failed:
 * `audit`/`replay` judge it.
 */
export function exitCodeOfSnapshots(allComplete: boolean): ExitCode {
  return allComplete ? EXIT_OK : EXIT_COULD_NOT_CHECK;
}

/** A typed error (`ReserveAuditError`, incl. usage errors) → 2; anything else is a bug → 3. */
export function exitCodeOfError(e: unknown): ExitCode {
  return isReserveAuditError(e) ? EXIT_COULD_NOT_CHECK : EXIT_INTERNAL_ERROR;
}

export interface ReportErrorOptions {
  /** `--debug`: print the stack (and the chain of causes) after the one-line message */
  readonly debug?: boolean;
}

/**
 * Prints an error to stderr as one line and returns its exit code: a usage error as
 * `CODE: message` (2), another typed error as `could not check: CODE: message` (2), anything
 * else as `internal error: message` (3). The stack is printed only with `debug`.
 */
export function reportError(
  e: unknown,
  stderr: NodeJS.WritableStream = process.stderr,
  options: ReportErrorOptions = {},
): ExitCode {
  const debug = options.debug === true;
  if (isUsageError(e)) {
    stderr.write(`reserve-audit: ${e.message}\n`);
  } else if (isReserveAuditError(e)) {
    stderr.write(`reserve-audit: could not check: ${e.message}\n`);
  } else {
    const msg = e instanceof Error ? e.message : String(e);
    const hint = debug ? '' : ' (a bug; run again with --debug for the stack)';
    stderr.write(`reserve-audit: internal error: ${msg.split('\n')[0]}${hint}\n`);
  }
  if (debug) stderr.write(formatErrorStack(e));
  return exitCodeOfError(e);
}

/** The stack of an error and of each `cause` under it, for `--debug`. */
export function formatErrorStack(e: unknown): string {
  const lines: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur !== undefined && depth < 8; depth++) {
    const text = cur instanceof Error ? (cur.stack ?? `${cur.name}: ${cur.message}`) : String(cur);
    lines.push(depth === 0 ? text : `caused by: ${text}`);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return `${lines.join('\n')}\n`;
}
