/**
 * The shape of a swap plan (docs/protocol/api-decisions.md §4, §4b): every amount of a quoted or executed
 * swap, hop by hop. Computed by swap-plan.ts, backed by exact values in swap-plan-view.ts, rendered
 * by quote-body.ts and applied by the simulated ledger.
 */
import type { Dec } from '../money/decimal.js';
import type { PoolState, TokenRef } from './types.js';

/** 'connect': POST /connect/quote and Connect execution (§4); 'pool': POST /pools/quote (§4b). */
export type SwapPlanMode = 'connect' | 'pool';

/** Where the fixed network fee is taken from. */
export type NetworkFeeSource =
  /** selling CC: from the input, after the Connect fee */
  | 'input'
  /** cross swap: from the CC output of the first hop, before the second */
  | 'intermediate'
  /** buying CC: from the final output */
  | 'output'
  /** pool quote: charged on top of the sell amount, not deducted */
  | 'on-top'
  /** waived (CC-equivalent sell amount ≥ the waiver threshold), or no CC on the route */
  | 'none';

export interface SwapHopPlan {
  readonly pool: PoolState;
  readonly sell: TokenRef;
  readonly buy: TokenRef;
  readonly reserveInBefore: Dec;
  readonly reserveOutBefore: Dec;
  /** amount entering the pool, pool fee included */
  readonly amountIn: Dec;
  /** pool fee in the sell token = protocolFee + lpFee */
  readonly poolFee: Dec;
  readonly protocolFee: Dec;
  readonly lpFee: Dec;
  /** paid out by the pool (rounded down) */
  readonly amountOut: Dec;
  /** what the same input would give with a zero pool fee (rounded down) */
  readonly amountOutNoFees: Dec;
  /** the pool's reserves after the hop (apply these when executing) */
  readonly newReserveA: Dec;
  readonly newReserveB: Dec;
}

export interface SwapPlan {
  readonly mode: SwapPlanMode;
  readonly sell: TokenRef;
  readonly buy: TokenRef;
  /** S, the amount the trader sends */
  readonly sellAmount: Dec;
  /** CC value of S (null when it cannot be valued) — decides the fee waiver */
  readonly sellAmountCc: Dec | null;
  /** S × connect_fee_rate rounded UP; 0 in 'pool' mode */
  readonly connectFee: Dec;
  /** the network fee in CC actually charged ("0" when waived) */
  readonly networkFee: Dec;
  readonly networkFeeSource: NetworkFeeSource;
  readonly hops: readonly SwapHopPlan[];
  /** returned to the trader, net of every fee */
  readonly amountOut: Dec;
  /** output of S through the route with every fee zero (Connect, network, pool) */
  readonly amountOutNoFees: Dec;
}
