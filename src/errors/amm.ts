/**
 * Errors of the AMM core (src/core/amm): amount parsing, market symbols, orderbook depth and
 * invalid pool data (docs/protocol/api-decisions.md §1, §2, §6). Quote validation failures are NOT thrown:
 * `quoteConnectSwap`/`quotePoolSwap` return them as `{ ok: false, status, error }`.
 */
import { guardOf, ReserveAuditError } from './base.js';

export type AmmErrorCode =
  /** an amount is not a plain positive decimal string (no exponent, no sign, ≤ 10 decimals, ≤ 28 digits) */
  | 'AMM_INVALID_AMOUNT'
  /** a market symbol or ticker id does not have the form <BASE>-<QUOTE> / <BASE>_<QUOTE> */
  | 'AMM_INVALID_MARKET_SYMBOL'
  /** orderbook depth is not an even integer in 2..200 */
  | 'AMM_INVALID_DEPTH'
  /** a pool's stored data is unusable (bad reserve or fee string, CC not in a pool where required) */
  | 'AMM_INVALID_POOL'
  /** a swap cannot be computed: empty reserve, output ≥ reserve, or input too small for the fees */
  | 'AMM_INSUFFICIENT_LIQUIDITY'
  /** the sell amount does not cover the Connect and network fees taken from it */
  | 'AMM_AMOUNT_BELOW_FEES'
  /** a candle period or time window is not a positive integer */
  | 'AMM_INVALID_PERIOD'
  /** a swap-event index query that needs exact sums on an index that is not exact (scan its events instead) */
  | 'AMM_EVENT_INDEX_INEXACT';

export class AmmError extends ReserveAuditError<AmmErrorCode> {
  override name = 'AmmError';
}

export const isAmmError = guardOf(AmmError);
