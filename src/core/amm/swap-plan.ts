/**
 * The swap plan: every amount of a quoted (or executed) swap, hop by hop, in the fee order of
 * spec/api-decisions.md §4 (Connect) and §4b (pool quote). The quote bodies are rendered from it
 * and the simulated ledger applies its new reserves, so quote and execution share one computation.
 *
 * Per hop (input `in`, pool fee rate `f`, admin share `s`):
 *   poolFee     = in × f                 rounded UP   (charged to the trader)
 *   protocolFee = in × f × s             rounded DOWN (leaves the pool for the protocol)
 *   lpFee       = poolFee − protocolFee               (stays in the pool)
 *   out         = in(1−f)·R_out/(R_in + in(1−f))  rounded DOWN
 *   R_in'  = R_in + in − protocolFee,   R_out' = R_out − out
 * so k = R_in·R_out never decreases (protocolFee ≤ in·f).
 */
import { AmmError } from '../../errors/amm.js';
import { type Dec, roundUp10, toDec, ZERO } from './decimal.js';
import type { Route } from './route.js';
import { computeCcValue } from './route.js';
import { computeFeeSplit, computeReserveOf, computeSwapOutput, isSameToken } from './swap-math.js';
import type { ExchangePolicy, PoolState, TokenRef } from './types.js';

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

export interface SwapPlanInput {
  readonly route: Route;
  readonly sellAmount: Dec | string;
  readonly cc: TokenRef;
  /** all pools, for the CC valuation of the sell amount (fee waiver) */
  readonly pools: readonly PoolState[];
  readonly policy: Pick<ExchangePolicy, 'connectFeeRate' | 'networkFeeCc' | 'minSwapAmountForFeeWaiverCc'>;
  readonly mode: SwapPlanMode;
}

function belowFees(what: string, amount: Dec): never {
  throw new AmmError(
    'AMM_AMOUNT_BELOW_FEES',
    `"sellAmount" expected to cover the fees, got ${what} ${amount.toFixed()}`,
  );
}

/** One hop on `pool` with input `amountIn` (see the module comment for the formulas). */
export function computeSwapHop(
  pool: PoolState,
  sell: TokenRef,
  buy: TokenRef,
  amount: Dec | string,
): SwapHopPlan {
  const amountIn = toDec(amount, 'amountIn');
  const rIn = computeReserveOf(pool, sell);
  const rOut = computeReserveOf(pool, buy);
  if (rIn === null || rOut === null || isSameToken(sell, buy)) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"pool" expected to hold ${sell.id} and ${buy.id}, got ${pool.poolId}`,
    );
  }
  if (!rIn.gt(0) || !rOut.gt(0)) {
    throw new AmmError('AMM_INSUFFICIENT_LIQUIDITY', `"pool" ${pool.poolId} expected positive reserves`);
  }
  if (!amountIn.gt(0)) belowFees('hop input', amountIn);
  const feeRate = toDec(pool.feeRate, 'feeRate');
  const exactFee = amountIn.mul(feeRate);
  const poolFee = roundUp10(exactFee);
  const { protocolFee } = computeFeeSplit(exactFee, pool.adminFeeShare);
  const lpFee = poolFee.sub(protocolFee);
  const amountOut = computeSwapOutput({ reserveIn: rIn, reserveOut: rOut, amountIn, feeRate });
  const amountOutNoFees = computeSwapOutput({ reserveIn: rIn, reserveOut: rOut, amountIn, feeRate: ZERO });
  if (!amountOut.gt(0) || amountOut.gte(rOut)) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"amountOut" expected in (0, ${rOut.toFixed()}), got ${amountOut.toFixed()}`,
    );
  }
  const newIn = rIn.add(amountIn).sub(protocolFee);
  const newOut = rOut.sub(amountOut);
  const sellIsA = isSameToken(pool.tokenA, sell);
  return {
    pool,
    sell,
    buy,
    reserveInBefore: rIn,
    reserveOutBefore: rOut,
    amountIn,
    poolFee,
    protocolFee,
    lpFee,
    amountOut,
    amountOutNoFees,
    newReserveA: sellIsA ? newIn : newOut,
    newReserveB: sellIsA ? newOut : newIn,
  };
}

/**
 * Every amount of a swap of `sellAmount` along `route` (§4 fee order in 'connect' mode, §4b in
 * 'pool' mode). Throws `AMM_INSUFFICIENT_LIQUIDITY` (empty reserve, zero output) or
 * `AMM_AMOUNT_BELOW_FEES` (the fees taken from an amount exceed it).
 */
export function computeSwapPlan(x: SwapPlanInput): SwapPlan {
  const hopsIn = x.route.hops;
  const firstHop = hopsIn[0];
  const lastHop = hopsIn[hopsIn.length - 1];
  if (firstHop === undefined || lastHop === undefined) {
    throw new AmmError('AMM_INVALID_POOL', '"route" expected at least one hop, got 0');
  }
  const sell = firstHop.sell;
  const buy = lastHop.buy;
  const S = toDec(x.sellAmount, 'sellAmount');
  if (!S.gt(0)) belowFees('sell amount', S);
  const sellAmountCc = computeCcValue(S, sell, x.pools, x.cc);
  const waiver = toDec(x.policy.minSwapAmountForFeeWaiverCc, 'minSwapAmountForFeeWaiverCc');
  const waived = sellAmountCc?.gte(waiver) === true;
  const fixedFee = toDec(x.policy.networkFeeCc, 'networkFeeCc');

  let networkFeeSource: NetworkFeeSource = 'none';
  if (!waived && fixedFee.gt(0)) {
    if (x.mode === 'pool') networkFeeSource = 'on-top';
    else if (isSameToken(sell, x.cc)) networkFeeSource = 'input';
    else if (hopsIn.length > 1 && isSameToken(firstHop.buy, x.cc)) networkFeeSource = 'intermediate';
    else if (isSameToken(buy, x.cc)) networkFeeSource = 'output';
  }
  const networkFee = networkFeeSource === 'none' ? ZERO : fixedFee;

  const connectFee =
    x.mode === 'connect' ? roundUp10(S.mul(toDec(x.policy.connectFeeRate, 'connectFeeRate'))) : ZERO;
  let amount = S.sub(connectFee);
  if (networkFeeSource === 'input') amount = amount.sub(networkFee);
  if (!amount.gt(0)) belowFees('amount after fees', amount);

  const hops: SwapHopPlan[] = [];
  for (const [i, h] of hopsIn.entries()) {
    if (i === 1 && networkFeeSource === 'intermediate') {
      amount = amount.sub(networkFee);
      if (!amount.gt(0)) belowFees('intermediate CC after the network fee', amount);
    }
    const hop = computeSwapHop(h.pool, h.sell, h.buy, amount);
    hops.push(hop);
    amount = hop.amountOut;
  }
  if (networkFeeSource === 'output') {
    amount = amount.sub(networkFee);
    if (!amount.gt(0)) belowFees('output after the network fee', amount);
  }

  let noFees = S;
  for (const h of hopsIn) {
    const rIn = computeReserveOf(h.pool, h.sell) ?? ZERO;
    const rOut = computeReserveOf(h.pool, h.buy) ?? ZERO;
    noFees = computeSwapOutput({ reserveIn: rIn, reserveOut: rOut, amountIn: noFees, feeRate: ZERO });
  }

  return {
    mode: x.mode,
    sell,
    buy,
    sellAmount: S,
    sellAmountCc,
    connectFee,
    networkFee,
    networkFeeSource,
    hops,
    amountOut: amount,
    amountOutNoFees: noFees,
  };
}

/** Sum of the route's pool fee rates, plus the Connect fee rate in 'connect' mode (fees.fee_percentage). Exact. */
export function computeFeePercentage(plan: SwapPlan, connectFeeRate: Dec | string): Dec {
  let total = plan.mode === 'connect' ? toDec(connectFeeRate, 'connectFeeRate') : ZERO;
  for (const h of plan.hops) total = total.add(toDec(h.pool.feeRate, 'feeRate'));
  return total;
}

/** Buy-per-sell mid price of a hop's pool at reserves (rIn, rOut): rOut / rIn. Exact. */
export function computeHopMid(reserveIn: Dec, reserveOut: Dec): Dec {
  return reserveIn.isZero() ? ZERO : reserveOut.div(reserveIn);
}
