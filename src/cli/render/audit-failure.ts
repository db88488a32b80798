/**
 * An audit that did not complete (issue 25 "the CI contract"): the exchange was unreachable, an
 * input could not be read, a requested output could not be written — or a bug. The `audit` command
 * still writes every output it was asked for (`--json`, `--junit`, `--html`), each saying so
 * (audit-json.ts, junit.ts, html-report.ts); this is what they are made from. The exit code is the
 * one the process exits with: 2 for a typed error (could not check), 3 for anything else.
 */
import { isReserveAuditError } from '../../errors/base.js';
import { EXIT_COULD_NOT_CHECK, EXIT_INTERNAL_ERROR } from '../exit-codes.js';

export interface AuditFailure {
  /** could-not-check: a typed error (exit 2); internal-error: anything else, a bug (exit 3) */
  readonly outcome: 'could-not-check' | 'internal-error';
  readonly exitCode: typeof EXIT_COULD_NOT_CHECK | typeof EXIT_INTERNAL_ERROR;
  /** the exchange's base URL, redacted (credentials, query values and fragment removed) */
  readonly baseUrl: string;
  /** ISO time the failure was reported */
  readonly at: string;
  readonly reason: {
    /** the error's stable code, or INTERNAL_ERROR for a bug */
    readonly code: string;
    /** one line, the message without its code (URLs in it are redacted where the error is made) */
    readonly message: string;
  };
}

/** The failure of an audit from the error that ended it. */
export function buildAuditFailure(e: unknown, baseUrl: string, at: string): AuditFailure {
  if (isReserveAuditError(e))
    return {
      outcome: 'could-not-check',
      exitCode: EXIT_COULD_NOT_CHECK,
      baseUrl,
      at,
      reason: { code: e.code, message: e.shortMessage.split('\n')[0] ?? '' },
    };
  const msg = e instanceof Error ? e.message : String(e);
  return {
    outcome: 'internal-error',
    exitCode: EXIT_INTERNAL_ERROR,
    baseUrl,
    at,
    reason: { code: 'INTERNAL_ERROR', message: msg.split('\n')[0] ?? '' },
  };
}
