/**
 * Constant-product (Uniswap-V2) swap math on one pool (spec/api-decisions.md §1, §2, §4):
 * outputs, inputs, mid prices, slippage, fee split and TVL. Exact decimal arithmetic at 80
 * significant digits, then ONE rounding per result, in the direction each function states.
 */
import { AmmError } from '../../errors/amm.js';
import { type Dec, ONE, roundDown10, roundHalfUp10, roundUp10, toDec, ZERO } from './decimal.js';
import type { PoolState, TokenRef } from './types.js';

export interface SwapOutputInput {
  readonly reserveIn: Dec | string;
  readonly reserveOut: Dec | string;
  /** amount entering the pool, pool fee included */
  readonly amountIn: Dec | string;
  /** pool fee rate as a fraction, e.g. "0.0005" */
  readonly feeRate: Dec | string;
}

export interface SwapInputInput {
  readonly reserveIn: Dec | string;
  readonly reserveOut: Dec | string;
  /** amount wanted out of the pool */
  readonly amountOut: Dec | string;
  readonly feeRate: Dec | string;
}

function assertReserves(reserveIn: Dec, reserveOut: Dec): void {
  if (!reserveIn.gt(0) || !reserveOut.gt(0)) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"reserve" expected positive reserves, got ${reserveIn}/${reserveOut}`,
    );
  }
}

function assertFeeRate(f: Dec): void {
  if (f.lt(0) || f.gte(1))
    throw new AmmError('AMM_INVALID_POOL', `"feeRate" expected a fraction in [0, 1), got "${f}"`);
}

/**
 * Output of a swap: `out = in(1−f)·R_out / (R_in + in(1−f))`, rounded DOWN to 10 places (a pool
 * payout). Always < R_out. Throws `AMM_INSUFFICIENT_LIQUIDITY` if a reserve is not positive.
 */
export function computeSwapOutput(x: SwapOutputInput): Dec {
  const rIn = toDec(x.reserveIn, 'reserveIn');
  const rOut = toDec(x.reserveOut, 'reserveOut');
  const amountIn = toDec(x.amountIn, 'amountIn');
  const f = toDec(x.feeRate, 'feeRate');
  assertReserves(rIn, rOut);
  assertFeeRate(f);
  if (amountIn.lte(0)) return ZERO;
  const eff = amountIn.mul(ONE.sub(f));
  return roundDown10(eff.mul(rOut).div(rIn.add(eff)));
}

/**
 * Input (pool fee included) needed to take `amountOut` from the pool: the inverse of
 * `computeSwapOutput`, `in = R_in·out / ((R_out − out)(1−f))`, rounded UP to 10 places (paid in).
 * Throws `AMM_INSUFFICIENT_LIQUIDITY` if `amountOut ≥ R_out` or a reserve is not positive.
 */
export function computeSwapInput(x: SwapInputInput): Dec {
  const rIn = toDec(x.reserveIn, 'reserveIn');
  const rOut = toDec(x.reserveOut, 'reserveOut');
  const out = toDec(x.amountOut, 'amountOut');
  const f = toDec(x.feeRate, 'feeRate');
  assertReserves(rIn, rOut);
  assertFeeRate(f);
  if (out.lte(0)) return ZERO;
  if (out.gte(rOut)) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"amountOut" expected less than the reserve ${rOut}, got "${out}"`,
    );
  }
  return roundUp10(rIn.mul(out).div(rOut.sub(out).mul(ONE.sub(f))));
}

/** Mid price reserve_b / reserve_a (quote per base), exact (unrounded); null while a reserve is zero. */
export function computeMidPriceExact(pool: Pick<PoolState, 'reserveA' | 'reserveB'>): Dec | null {
  const a = toDec(pool.reserveA, 'reserveA');
  const b = toDec(pool.reserveB, 'reserveB');
  if (!a.gt(0) || !b.gt(0)) return null;
  return b.div(a);
}

/** Mid price reserve_b / reserve_a, rounded HALF-UP to 10 places; null while a reserve is zero. */
export function computeMidPrice(pool: Pick<PoolState, 'reserveA' | 'reserveB'>): Dec | null {
  const p = computeMidPriceExact(pool);
  return p === null ? null : roundHalfUp10(p);
}

/**
 * Mid price (reserve_b / reserve_a) after new reserves, HALF-UP to 10 places; null if a reserve is zero.
 * Same as `computeMidPrice` on the post-swap reserves (e.g. a `SwapHop`'s newReserveA/B).
 */
export function computePriceAfter(reserveA: Dec | string, reserveB: Dec | string): Dec | null {
  return computeMidPrice({ reserveA: toDec(reserveA).toFixed(), reserveB: toDec(reserveB).toFixed() });
}

/** Slippage `1 − tradeNoFees / poolBefore`, HALF-UP to 10 places; 0 when poolBefore is 0. */
export function computeSlippage(tradeNoFees: Dec | string, poolBefore: Dec | string): Dec {
  const before = toDec(poolBefore);
  if (before.isZero()) return ZERO;
  return roundHalfUp10(ONE.sub(toDec(tradeNoFees).div(before)));
}

export interface FeeSplit {
  /** the part that leaves the pool for the protocol: fee × share, rounded DOWN (paid out of the pool) */
  readonly protocolFee: Dec;
  /** the part that stays in the pool for liquidity providers: fee − protocolFee (exact) */
  readonly lpFee: Dec;
}

/**
 * Splits a pool fee by `admin_fee_share` (§2): protocol = fee × share rounded DOWN to 10 places,
 * lp = fee − protocol. protocol + lp = fee exactly.
 */
export function computeFeeSplit(poolFee: Dec | string, adminFeeShare: Dec | string): FeeSplit {
  const fee = toDec(poolFee, 'poolFee');
  const share = toDec(adminFeeShare, 'adminFeeShare');
  if (share.lt(0) || share.gt(1)) {
    throw new AmmError('AMM_INVALID_POOL', `"adminFeeShare" expected a fraction in [0, 1], got "${share}"`);
  }
  const protocolFee = roundDown10(fee.mul(share));
  return { protocolFee, lpFee: fee.sub(protocolFee) };
}

export function isSameToken(a: TokenRef, b: TokenRef): boolean {
  return a.admin === b.admin && a.id === b.id;
}

/** The pool's reserve of `token`, or null if the pool does not hold it. */
export function computeReserveOf(pool: PoolState, token: TokenRef): Dec | null {
  if (isSameToken(pool.tokenA, token)) return toDec(pool.reserveA, 'reserveA');
  if (isSameToken(pool.tokenB, token)) return toDec(pool.reserveB, 'reserveB');
  return null;
}

/** CC-side reserve of a pool (0 if CC is not in the pool): the "depth" of §2. Exact. */
export function computeCcReserve(pool: PoolState, cc: TokenRef): Dec {
  return computeReserveOf(pool, cc) ?? ZERO;
}

/** Pool TVL in CC = 2 × the CC-side reserve (§2). Exact (reserves have 10 places). 0 without CC. */
export function computeTvlCc(pool: PoolState, cc: TokenRef): Dec {
  return computeCcReserve(pool, cc).mul(2);
}
