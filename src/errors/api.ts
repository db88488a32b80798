/**
 * Errors of the public-API response parsers (src/core/wire; docs/protocol/public-api.md "Resources",
 * docs/protocol/api-decisions.md §1). A response that does not have the documented shape is an error: the
 * audit cannot run on it. Messages are path-precise: `data.pools[3].reserve_a expected a decimal
 * string, got 12`.
 */
import { ReserveAuditError } from './base.js';

export type ApiErrorCode =
  /** a response (or part of it) does not have the documented shape: type, format, required key, size */
  | 'API_SHAPE_INVALID'
  /** an argument given to a request builder (quote request, volume window) is invalid */
  | 'API_REQUEST_INVALID';

export class ApiShapeError extends ReserveAuditError<ApiErrorCode> {
  override name = 'ApiShapeError';
}
