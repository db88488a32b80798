/**
 * Errors of the auditor's ledger client (src/io/ledger-api; issue 26): a Canton participant's JSON
 * Ledger API answered something that is not the documented shape, or refused. Such an error never
 * becomes a finding: the ledger check it belongs to is could-not-check (docs/findings.md "Soundness").
 */
import { ReserveAuditError } from './base.js';

export type LedgerReadErrorCode =
  /** a response is not the shape Canton's OpenAPI document gives (type, required field, range) */
  | 'LEDGER_RESPONSE_INVALID'
  /** the participant answered with an error status (401/403, 404 other than not-found, 4xx) */
  | 'LEDGER_REQUEST_REFUSED'
  /** an option of the ledger client is invalid (URL, party, token) */
  | 'LEDGER_OPTIONS_INVALID';

export class LedgerReadError extends ReserveAuditError<LedgerReadErrorCode> {
  override name = 'LedgerReadError';
}
