/**
 * The swap plan: every amount of a quoted (or executed) swap, hop by hop, in the fee order of
 * docs/protocol/api-decisions.md §4 (Connect) and §4b (pool quote). The quote bodies are rendered from it
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
import type { Dec } from '../money/decimal.js';
import { addFx, cmpFx, type Fixed, FX_ZERO, formatFixed, mulFx, roundFx, subFx, toFx } from './exact.js';
import type { Route } from './route.js';
import { computeCcValueFx } from './route.js';
import {
  computeFeeSplitFx,
  computeReserveOfExact,
  computeSwapOutputFx,
  isSameToken,
  parsePoolExact,
} from './swap-math.js';
import type { NetworkFeeSource, SwapHopPlan, SwapPlan, SwapPlanMode } from './swap-plan-types.js';
import { computeSwapHopExact, ExactSwapHopPlan, ExactSwapPlan, type SwapHopExact } from './swap-plan-view.js';
import type { ExchangePolicy, PoolState, TokenRef } from './types.js';

export type { NetworkFeeSource, SwapHopPlan, SwapPlan, SwapPlanMode } from './swap-plan-types.js';

export interface SwapPlanInput {
  readonly route: Route;
  readonly sellAmount: Dec | string;
  readonly cc: TokenRef;
  /** all pools, for the CC valuation of the sell amount (fee waiver) */
  readonly pools: readonly PoolState[];
  readonly policy: Pick<ExchangePolicy, 'connectFeeRate' | 'networkFeeCc' | 'minSwapAmountForFeeWaiverCc'>;
  readonly mode: SwapPlanMode;
  /** the CC value of the sell amount when the caller already has it (null: cannot be valued) */
  readonly sellAmountCc?: Dec | string | null;
}

function belowFees(what: string, amount: Fixed): never {
  throw new AmmError(
    'AMM_AMOUNT_BELOW_FEES',
    `"sellAmount" expected to cover the fees, got ${what} ${formatFixed(amount)}`,
  );
}

/** One hop on `pool` with input `amountIn` (see the module comment for the formulas). */
export function computeSwapHop(
  pool: PoolState,
  sell: TokenRef,
  buy: TokenRef,
  amount: Dec | string,
): SwapHopPlan {
  return computeSwapHopFx(pool, sell, buy, toFx(amount, 'amountIn'));
}

function computeSwapHopFx(pool: PoolState, sell: TokenRef, buy: TokenRef, amountIn: Fixed): SwapHopPlan {
  const e = parsePoolExact(pool);
  const rIn = computeReserveOfExact(pool, e, sell);
  const rOut = computeReserveOfExact(pool, e, buy);
  if (rIn === null || rOut === null || isSameToken(sell, buy)) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"pool" expected to hold ${sell.id} and ${buy.id}, got ${pool.poolId}`,
    );
  }
  if (rIn.n <= 0n || rOut.n <= 0n) {
    throw new AmmError('AMM_INSUFFICIENT_LIQUIDITY', `"pool" ${pool.poolId} expected positive reserves`);
  }
  if (amountIn.n <= 0n) belowFees('hop input', amountIn);
  const feeRate = e.feeRate;
  if (feeRate.n < 0n || cmpFx(feeRate, { n: 1n, s: 0 }) >= 0) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"feeRate" expected a fraction in [0, 1), got "${formatFixed(feeRate)}"`,
    );
  }
  const exactFee = mulFx(amountIn, feeRate);
  const poolFee = roundFx(exactFee, 'up');
  const { protocolFee } = computeFeeSplitFx(exactFee, e.adminFeeShare);
  const lpFee = subFx(poolFee, protocolFee);
  const amountOut = computeSwapOutputFx(rIn, rOut, amountIn, feeRate);
  const amountOutNoFees = computeSwapOutputFx(rIn, rOut, amountIn, FX_ZERO);
  if (amountOut.n <= 0n || cmpFx(amountOut, rOut) >= 0) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"amountOut" expected in (0, ${formatFixed(rOut)}), got ${formatFixed(amountOut)}`,
    );
  }
  const newIn = subFx(addFx(rIn, amountIn), protocolFee);
  const newOut = subFx(rOut, amountOut);
  const sellIsA = isSameToken(pool.tokenA, sell);
  const exact: SwapHopExact = {
    reserveIn: rIn,
    reserveOut: rOut,
    amountIn,
    poolFee,
    protocolFee,
    lpFee,
    amountOut,
    amountOutNoFees,
    newReserveA: sellIsA ? newIn : newOut,
    newReserveB: sellIsA ? newOut : newIn,
  };
  return new ExactSwapHopPlan(pool, sell, buy, exact);
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
  const S = toFx(x.sellAmount, 'sellAmount');
  if (S.n <= 0n) belowFees('sell amount', S);
  const sellAmountCc =
    x.sellAmountCc !== undefined
      ? x.sellAmountCc === null
        ? null
        : toFx(x.sellAmountCc)
      : computeCcValueFx(S, sell, x.pools, x.cc);
  const waiver = toFx(x.policy.minSwapAmountForFeeWaiverCc, 'minSwapAmountForFeeWaiverCc');
  const waived = sellAmountCc !== null && cmpFx(sellAmountCc, waiver) >= 0;
  const fixedFee = toFx(x.policy.networkFeeCc, 'networkFeeCc');

  let networkFeeSource: NetworkFeeSource = 'none';
  if (!waived && fixedFee.n > 0n) {
    if (x.mode === 'pool') networkFeeSource = 'on-top';
    else if (isSameToken(sell, x.cc)) networkFeeSource = 'input';
    else if (hopsIn.length > 1 && isSameToken(firstHop.buy, x.cc)) networkFeeSource = 'intermediate';
    else if (isSameToken(buy, x.cc)) networkFeeSource = 'output';
  }
  const networkFee = networkFeeSource === 'none' ? FX_ZERO : fixedFee;

  const connectFee =
    x.mode === 'connect' ? roundFx(mulFx(S, toFx(x.policy.connectFeeRate, 'connectFeeRate')), 'up') : FX_ZERO;
  let amount = subFx(S, connectFee);
  if (networkFeeSource === 'input') amount = subFx(amount, networkFee);
  if (amount.n <= 0n) belowFees('amount after fees', amount);

  const hops: SwapHopPlan[] = [];
  for (const [i, h] of hopsIn.entries()) {
    if (i === 1 && networkFeeSource === 'intermediate') {
      amount = subFx(amount, networkFee);
      if (amount.n <= 0n) belowFees('intermediate CC after the network fee', amount);
    }
    const hop = computeSwapHopFx(h.pool, h.sell, h.buy, amount);
    hops.push(hop);
    amount = computeSwapHopExact(hop).amountOut;
  }
  if (networkFeeSource === 'output') {
    amount = subFx(amount, networkFee);
    if (amount.n <= 0n) belowFees('output after the network fee', amount);
  }

  let noFees = S;
  for (const h of hopsIn) {
    const e = parsePoolExact(h.pool);
    const rIn = computeReserveOfExact(h.pool, e, h.sell) ?? FX_ZERO;
    const rOut = computeReserveOfExact(h.pool, e, h.buy) ?? FX_ZERO;
    if (rIn.n <= 0n || rOut.n <= 0n) {
      throw new AmmError('AMM_INSUFFICIENT_LIQUIDITY', `"pool" ${h.pool.poolId} expected positive reserves`);
    }
    noFees = computeSwapOutputFx(rIn, rOut, noFees, FX_ZERO);
  }

  return new ExactSwapPlan(
    x.mode,
    sell,
    buy,
    networkFeeSource,
    hops,
    { sellAmount: S, amountOut: amount, amountOutNoFees: noFees, networkFee, connectFee },
    sellAmountCc,
  );
}
