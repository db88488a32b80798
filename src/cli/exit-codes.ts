/**
 * THE one map from outcomes to process exit codes; every command returns its code through a
 * function of this file and nowhere else (pipelines in src/run return reports; the exit code in an
 * audit's or a replay's summary comes from the same table, src/core/audit/exit-code.ts, which the
 * first three constants here are built from):
 *   0 = verified / all checks passed,
 *   1 = a check failed (mismatch, finding),
 *   2 = could not check (usage error, bad input, unsupported version, missing types, network),
 *   3 = internal error: a bug — anything thrown that is not a `ReserveAuditError`,
 *   130 / 143 = stopped by SIGINT / SIGTERM (128 + the signal's number, the shell's convention;
 *   ./signals.ts) — except `serve` and `watch`, which stop gracefully and exit 0.
 */
import { AUDIT_EXIT_CODES, computeAuditExitCode } from '../core/audit/exit-code.js';
import type { AuditOutcome } from '../core/audit/finding.js';
import type { VerificationStatus } from '../core/hash/verify-contract-id.js';
import { formatDisplayText } from '../core/wire/display-text.js';
import { isReserveAuditError } from '../errors/base.js';
import { isUsageError } from '../errors/usage.js';

export const EXIT_OK = AUDIT_EXIT_CODES.passed;
export const EXIT_FAILED = AUDIT_EXIT_CODES.failed;
export const EXIT_COULD_NOT_CHECK = AUDIT_EXIT_CODES['could-not-check'];
export const EXIT_INTERNAL_ERROR = 3;
/** stopped by SIGINT (Ctrl-C): 128 + 2 */
const EXIT_INTERRUPTED = 130;
/** stopped by SIGTERM: 128 + 15 */
const EXIT_TERMINATED = 143;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_COULD_NOT_CHECK
  | typeof EXIT_INTERNAL_ERROR
  | typeof EXIT_INTERRUPTED
  | typeof EXIT_TERMINATED;

/** audit, replay, demo: passed → 0, failed → 1, could-not-check → 2 (src/core/audit/exit-code.ts). */
export function exitCodeOf(outcome: AuditOutcome): ExitCode {
  return computeAuditExitCode(outcome);
}

/** The signals every command answers with one exit code: SIGINT → 130, SIGTERM → 143. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** SIGINT → 130, SIGTERM → 143 (`serve` and `watch` stop gracefully instead and exit 0). */
export function exitCodeOfSignal(signal: StopSignal): ExitCode {
  return signal === 'SIGINT' ? EXIT_INTERRUPTED : EXIT_TERMINATED;
}

/** verify-contract: verified → 0, mismatch → 1, could-not-check → 2. */
export function exitCodeOfVerification(status: VerificationStatus): ExitCode {
  return { verified: EXIT_OK, mismatch: EXIT_FAILED, 'could-not-check': EXIT_COULD_NOT_CHECK }[status];
}

/**
 * verify-contract --batch: the worst verdict, as an audit combines its checks — any mismatch → 1,
 * else any could-not-check (or no contract at all) → 2, else 0.
 */
export function exitCodeOfBatch(counts: {
  readonly verified: number;
  readonly mismatch: number;
  readonly couldNotCheck: number;
}): ExitCode {
  if (counts.mismatch > 0) return EXIT_FAILED;
  if (counts.couldNotCheck > 0 || counts.verified === 0) return EXIT_COULD_NOT_CHECK;
  return EXIT_OK;
}

/**
 * snapshot: 0 when every snapshot was recorded completely, 2 when one could not be fetched in
 * full (a failed endpoint, a network error). A mismatching contract is recorded, not failed:
 * `audit`/`replay` judge it.
 */
export function exitCodeOfSnapshots(allComplete: boolean, chainError = false): ExitCode {
  // a reserve chain error of the followed ledger (snapshot --ledger-api) is an accusation: it wins
  return chainError ? EXIT_FAILED : allComplete ? EXIT_OK : EXIT_COULD_NOT_CHECK;
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
    stderr.write(`reserve-audit: ${formatDisplayText(e.message)}\n`);
  } else if (isReserveAuditError(e)) {
    stderr.write(`reserve-audit: could not check: ${formatDisplayText(e.message)}\n`);
  } else {
    const msg = e instanceof Error ? e.message : String(e);
    const hint = debug ? '' : ' (a bug; run again with --debug for the stack)';
    stderr.write(`reserve-audit: internal error: ${formatDisplayText(msg.split('\n')[0] ?? '')}${hint}\n`);
  }
  if (debug) stderr.write(formatErrorStack(e));
  return exitCodeOfError(e);
}

/** The stack of an error and of each `cause` under it, for `--debug`. */
function formatErrorStack(e: unknown): string {
  const lines: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur !== undefined && depth < 8; depth++) {
    const text = cur instanceof Error ? (cur.stack ?? `${cur.name}: ${cur.message}`) : String(cur);
    lines.push(depth === 0 ? text : `caused by: ${text}`);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return `${lines.join('\n')}\n`;
}
