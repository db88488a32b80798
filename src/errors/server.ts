/**
 * Errors of the reference server: the simulated ledger (src/sim, docs/protocol/api-decisions.md §3, §5),
 * its SQLite store (src/sim/store) and the HTTP layer (src/server). Codes are stable.
 * The simulator refunds a bad transfer (it is not an error); `ServerError` codes mean the call
 * could not run. `RequestRejectedError` is the server refusing a client's request (a 4xx answer,
 * docs/protocol/api-decisions.md §8): expected, never logged as a failure.
 */
import { ReserveAuditError, type ReserveAuditErrorOptions } from './base.js';

export type ServerErrorCode =
  /** a seed-market file or object is malformed (missing field, bad decimal, unknown token) */
  | 'SEED_MARKET_INVALID'
  /** an option given to createExchange / startTraffic / the db is out of range */
  | 'SIMULATOR_OPTION_INVALID'
  /** a pool id that the ledger does not know */
  | 'POOL_NOT_FOUND'
  /** an operation on a pool that is retired */
  | 'POOL_INACTIVE'
  /** a liquidity amount is not a positive decimal string, or exceeds what the pool/provider holds */
  | 'LIQUIDITY_AMOUNT_INVALID'
  /** the SQLite database could not be opened, migrated, or is from a newer schema */
  | 'DB_OPEN_FAILED'
  /** the database holds data the simulator cannot read back (corrupt row, foreign schema) */
  | 'DB_CORRUPT'
  /** minting a reserve contract failed (codec or hashing error underneath; see cause) */
  | 'RESERVE_MINT_FAILED'
  /** an option given to createApp / startServer / the rate limiter is invalid (HTTP layer) */
  | 'SERVER_OPTION_INVALID';

export class ServerError extends ReserveAuditError<ServerErrorCode> {
  override name = 'ServerError';
}

/** Why the server refused a request; each code has one HTTP status (REQUEST_STATUS). */
export type RequestRejectedCode =
  /** the request's parameters or body break a rule of the API (400) */
  | 'REQUEST_INVALID'
  /** no such path, or the resource the request names does not exist (404) */
  | 'NOT_FOUND'
  /** the path exists but not for this method (405, with `Allow`) */
  | 'METHOD_NOT_ALLOWED'
  /** the request conflicts with the ledger's state, e.g. a retired pool (409) */
  | 'CONFLICT'
  /** the request body is over the limit (413; the connection is closed after the answer) */
  | 'PAYLOAD_TOO_LARGE'
  /** an `Expect` header other than `100-continue` (417; the connection is closed after the answer) */
  | 'EXPECTATION_FAILED'
  /** the client is over its rate limit (429, with `Retry-After`) */
  | 'RATE_LIMITED';

/** The HTTP status of each rejection code. */
export const REQUEST_STATUS: Readonly<Record<RequestRejectedCode, number>> = {
  REQUEST_INVALID: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
};

export interface RequestRejectedOptions extends ReserveAuditErrorOptions {
  /** extra response headers (e.g. `Allow`, `Retry-After`) */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A 4xx answer of the reference server. `shortMessage` is the exact text the spec names for the
 * response body `{"error": "<shortMessage>"}` (e.g. `missing ticker_id`), so it is sent unchanged.
 */
export class RequestRejectedError extends ReserveAuditError<RequestRejectedCode> {
  override name = 'RequestRejectedError';
  /** the HTTP status of the answer (REQUEST_STATUS[code]) */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: RequestRejectedCode, shortMessage: string, options: RequestRejectedOptions = {}) {
    super(code, shortMessage, options);
    this.status = REQUEST_STATUS[code];
    this.headers = options.headers ?? {};
  }
}

/**
 * Why the reference server's Ledger API (src/server/ledger-api/, docs/decisions/server.md) refused a
 * request: Canton's own error codes, each with Canton's error category, gRPC status and HTTP status.
 * `BODY_INVALID` is the one that is not a Canton error: a body or query parameter that does not
 * decode as the OpenAPI document describes it, answered `400 text/plain` like the document's `400`.
 */
export type LedgerRequestRejectedCode =
  /** no bearer token, or one that does not verify (signature, `aud`, `exp`, claims) (401) */
  | 'UNAUTHENTICATED'
  /** the token's user may not read as a requested party (403) */
  | 'PERMISSION_DENIED'
  /** the contract is unknown, or not visible to the requesting parties (404) */
  | 'CONTRACT_EVENTS_NOT_FOUND'
  /** a template or interface filter names an identifier the ledger does not know (404) */
  | 'TEMPLATES_OR_INTERFACES_NOT_FOUND'
  /** a value breaks a rule of the API (400) */
  | 'INVALID_ARGUMENT'
  /** an offset past the ledger end (400) */
  | 'OFFSET_AFTER_LEDGER_END'
  /** an end offset before the begin offset (400) */
  | 'OFFSET_OUT_OF_RANGE'
  /** more elements than the list limit, without a smaller `limit` (413) */
  | 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED'
  /** the body or a query parameter does not decode (400 text/plain) */
  | 'BODY_INVALID';

/** Canton's error category, gRPC status code and HTTP status of each code. */
export const LEDGER_REJECTION: Readonly<
  Record<
    LedgerRequestRejectedCode,
    { readonly category: number; readonly grpc: number; readonly status: number }
  >
> = {
  UNAUTHENTICATED: { category: 6, grpc: 16, status: 401 },
  PERMISSION_DENIED: { category: 7, grpc: 7, status: 403 },
  CONTRACT_EVENTS_NOT_FOUND: { category: 11, grpc: 5, status: 404 },
  TEMPLATES_OR_INTERFACES_NOT_FOUND: { category: 11, grpc: 5, status: 404 },
  INVALID_ARGUMENT: { category: 8, grpc: 3, status: 400 },
  OFFSET_AFTER_LEDGER_END: { category: 12, grpc: 11, status: 400 },
  OFFSET_OUT_OF_RANGE: { category: 9, grpc: 9, status: 400 },
  JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED: { category: 2, grpc: 10, status: 413 },
  BODY_INVALID: { category: 8, grpc: 3, status: 400 },
};

/** A refusal of the Ledger API; `shortMessage` is the `cause` the answer carries. */
export class LedgerRequestRejectedError extends ReserveAuditError<LedgerRequestRejectedCode> {
  override name = 'LedgerRequestRejectedError';
  readonly status: number;

  constructor(code: LedgerRequestRejectedCode, shortMessage: string, options: ReserveAuditErrorOptions = {}) {
    super(code, shortMessage, options);
    this.status = LEDGER_REJECTION[code].status;
  }
}
