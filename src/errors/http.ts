/**
 * Errors of the HTTP client (src/io/http). Every message names the URL with credentials
 * (user:password@, query values and fragment) stripped. An HTTP error means the audit could not
 * run (exit 2), never a finding.
 */
import { ReserveAuditError } from './base.js';

export type HttpErrorCode =
  /** the TCP/TLS connection could not be established (refused, DNS, unreachable, proxy) */
  | 'HTTP_CONNECT_FAILED'
  /** connect, headers or body did not arrive in time */
  | 'HTTP_TIMEOUT'
  /** the server answered with a status other than the expected one (after retries for GETs) */
  | 'HTTP_STATUS'
  /** the body exceeded the maximum response size; the transfer was aborted */
  | 'HTTP_TOO_LARGE'
  /** the body is not valid UTF-8 JSON */
  | 'HTTP_INVALID_JSON'
  /** the JSON body nests deeper, or holds more tokens, than the auditor reads (src/io/http/json-bounds.ts) */
  | 'HTTP_JSON_TOO_COMPLEX'
  /** the connection closed before the announced body arrived, or the encoding was corrupt */
  | 'HTTP_TRUNCATED'
  /** the URL or a client option is invalid */
  | 'HTTP_REQUEST_INVALID';

export class HttpError extends ReserveAuditError<HttpErrorCode> {
  override name = 'HttpError';
}
