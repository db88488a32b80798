/**
 * The boundary between the simulated ledger (src/sim) and the HTTP/websocket layer
 * (src/server/routes, src/server/ws). Routes read state ONLY through `ExchangeView`; the simulation
 * interface (docs/protocol/api-decisions.md §5) acts through `ExchangeSimulation`. The clock is injected.
 */
import type { SwapEventLog } from '../core/amm/swap-event-index.js';
import type { Amount, ExchangePolicy, PoolState, SwapEvent, Token, TokenRef } from '../core/amm/types.js';

export interface ExchangeView {
  /** the injected clock, ms since the epoch */
  nowMs(): number;
  /** every known token, including non-tradable ones (/tokens/info) */
  tokens(): readonly Token[];
  /** the network's native coin */
  cc(): Token;
  /** all pools, current state (active and inactive) */
  pools(): readonly PoolState[];
  policy(): ExchangePolicy;
  /** party that receives Connect swap transfers */
  swapParty(): string;
  /** external CC-USD reference price (source "external" market CC-USD) */
  ccUsdPrice(): Amount;
  /** swap events with fromMs <= tsMs < toMs, oldest first */
  swapEvents(fromMs: number, toMs: number): readonly SwapEvent[];
  /** unique traders with a swap in [fromMs, toMs) */
  countTraders(fromMs: number, toMs: number): number;
  /** the swap events with their window indexes (O(log n) sums, counts and extremes per window) */
  swapEventLog(): SwapEventLog;
  /** archived + active reserve contracts of a pool, newest first (history; for tests and the mirror) */
  reserveHistory(poolId: string, limit: number): readonly PoolState[];
  /** subscribe to ledger changes (swaps, liquidity); returns an unsubscribe function */
  onChange(listener: (change: ExchangeChange) => void): () => void;
}

export type ExchangeChange =
  | { readonly type: 'swap'; readonly events: readonly SwapEvent[]; readonly pools: readonly PoolState[] }
  | { readonly type: 'liquidity'; readonly pool: PoolState };

/** A ledger transfer to the swap party (docs/protocol/api-decisions.md §5). */
export interface SimTransfer {
  readonly sender: string;
  readonly instrument: TokenRef;
  readonly amount: Amount;
  readonly memo: string;
}

export type SimTransferResult =
  | {
      readonly status: 'executed';
      readonly payout: { readonly instrument: TokenRef; readonly amount: Amount };
      readonly events: readonly SwapEvent[];
    }
  | {
      readonly status: 'refunded';
      readonly reason: string;
      readonly refund: { readonly instrument: TokenRef; readonly amount: Amount };
    };

export interface ExchangeSimulation {
  transfer(t: SimTransfer): SimTransferResult;
  addLiquidity(poolId: string, amountA: Amount, amountB: Amount, provider: string): PoolState;
  removeLiquidity(poolId: string, lpAmount: Amount, provider: string): PoolState;
  /** advances the injected clock (deterministic tests) */
  advanceMs?(ms: number): void;
}
