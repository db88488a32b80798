/**
 * Errors of the reference server: the simulated ledger (src/sim, api-decisions §3, §5),
 * its SQLite store (src/sim/store) and the HTTP layer (src/server/routes). Codes are stable.
 * The simulator refunds a bad transfer (it is not an error); these codes mean the call could not run.
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

export class ServerError extends ReserveAuditError {
  override name = 'ServerError';
  declare readonly code: ServerErrorCode;

  constructor(code: ServerErrorCode, shortMessage: string, options: ReserveAuditErrorOptions = {}) {
    super(code, shortMessage, options);
  }
}
