/**
 * Constant-product (Uniswap-V2) swap math on one pool (docs/protocol/api-decisions.md §1, §2, §4):
 * outputs, inputs, mid prices, slippage, fee split and TVL. Exact rational arithmetic (bigint,
 * ./exact.ts), then ONE rounding per result, in the direction each function states.
 */
import { AmmError } from '../../errors/amm.js';
import { type Dec, ZERO } from '../money/decimal.js';
import {
  addFx,
  cmpFx,
  divFx,
  type Fixed,
  FX_ONE,
  fixedToDec,
  formatFixed,
  mulFx,
  parseFixed,
  roundFx,
  subFx,
  toFx,
} from './exact.js';
import { toDec } from './state-decimal.js';
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

function assertReserves(reserveIn: Fixed, reserveOut: Fixed): void {
  if (reserveIn.n <= 0n || reserveOut.n <= 0n) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"reserve" expected positive reserves, got ${formatFixed(reserveIn)}/${formatFixed(reserveOut)}`,
    );
  }
}

function assertFeeRate(f: Fixed): void {
  if (f.n < 0n || cmpFx(f, FX_ONE) >= 0)
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"feeRate" expected a fraction in [0, 1), got "${formatFixed(f)}"`,
    );
}

/**
 * The exact terms of a swap, read in this order and checked: both reserves (positive), the amount
 * (`amountName` in messages) and the fee rate (0 ≤ f < 1).
 */
function readSwapTerms(
  x: Pick<SwapOutputInput, 'reserveIn' | 'reserveOut' | 'feeRate'>,
  amount: Dec | string,
  amountName: string,
): { readonly rIn: Fixed; readonly rOut: Fixed; readonly amount: Fixed; readonly f: Fixed } {
  const rIn = toFx(x.reserveIn, 'reserveIn');
  const rOut = toFx(x.reserveOut, 'reserveOut');
  const a = toFx(amount, amountName);
  const f = toFx(x.feeRate, 'feeRate');
  assertReserves(rIn, rOut);
  assertFeeRate(f);
  return { rIn, rOut, amount: a, f };
}

/**
 * `computeSwapOutput` on exact values, no validation (reserves > 0, 0 ≤ f < 1 checked by the
 * caller): `in(1−f)·R_out / (R_in + in(1−f))` rounded DOWN to 10 places; 0 for in ≤ 0.
 */
export function computeSwapOutputFx(rIn: Fixed, rOut: Fixed, amountIn: Fixed, f: Fixed): Fixed {
  if (amountIn.n <= 0n) return { n: 0n, s: 0 };
  const eff = f.n === 0n ? amountIn : mulFx(amountIn, subFx(FX_ONE, f));
  return divFx(mulFx(eff, rOut), addFx(rIn, eff), 'down');
}

/**
 * Output of a swap: `out = in(1−f)·R_out / (R_in + in(1−f))`, rounded DOWN to 10 places (a pool
 * payout). Always < R_out. Throws `AMM_INSUFFICIENT_LIQUIDITY` if a reserve is not positive.
 */
export function computeSwapOutput(x: SwapOutputInput): Dec {
  const { rIn, rOut, amount, f } = readSwapTerms(x, x.amountIn, 'amountIn');
  if (amount.n <= 0n) return ZERO;
  return fixedToDec(computeSwapOutputFx(rIn, rOut, amount, f));
}

/**
 * Input (pool fee included) needed to take `amountOut` from the pool: the inverse of
 * `computeSwapOutput`, `in = R_in·out / ((R_out − out)(1−f))`, rounded UP to 10 places (paid in).
 * Throws `AMM_INSUFFICIENT_LIQUIDITY` if `amountOut ≥ R_out` or a reserve is not positive.
 */
export function computeSwapInput(x: SwapInputInput): Dec {
  const { rIn, rOut, amount: out, f } = readSwapTerms(x, x.amountOut, 'amountOut');
  if (out.n <= 0n) return ZERO;
  if (cmpFx(out, rOut) >= 0) {
    throw new AmmError(
      'AMM_INSUFFICIENT_LIQUIDITY',
      `"amountOut" expected less than the reserve ${formatFixed(rOut)}, got "${formatFixed(out)}"`,
    );
  }
  return fixedToDec(divFx(mulFx(rIn, out), mulFx(subFx(rOut, out), subFx(FX_ONE, f)), 'up'));
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
  const a = toFx(pool.reserveA, 'reserveA');
  const b = toFx(pool.reserveB, 'reserveB');
  if (a.n <= 0n || b.n <= 0n) return null;
  return fixedToDec(divFx(b, a, 'half-up'));
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
  const before = toFx(poolBefore);
  if (before.n === 0n) return ZERO;
  return fixedToDec(divFx(subFx(before, toFx(tradeNoFees)), before, 'half-up'));
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
  const fee = toFx(poolFee, 'poolFee');
  const share = toFx(adminFeeShare, 'adminFeeShare');
  const split = computeFeeSplitFx(fee, share);
  return { protocolFee: fixedToDec(split.protocolFee), lpFee: fixedToDec(split.lpFee) };
}

/** `computeFeeSplit` on exact values. Throws `AMM_INVALID_POOL` for a share outside [0, 1]. */
export function computeFeeSplitFx(fee: Fixed, share: Fixed): { protocolFee: Fixed; lpFee: Fixed } {
  if (share.n < 0n || cmpFx(share, FX_ONE) > 0) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"adminFeeShare" expected a fraction in [0, 1], got "${formatFixed(share)}"`,
    );
  }
  const protocolFee = roundFx(mulFx(fee, share), 'down');
  return { protocolFee, lpFee: subFx(fee, protocolFee) };
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
function computeCcReserve(pool: PoolState, cc: TokenRef): Dec {
  return computeReserveOf(pool, cc) ?? ZERO;
}

/** Pool TVL in CC = 2 × the CC-side reserve (§2). Exact (reserves have 10 places). 0 without CC. */
export function computeTvlCc(pool: PoolState, cc: TokenRef): Dec {
  return computeCcReserve(pool, cc).mul(2);
}

/** Parsed (exact) reserves, fee rate and admin share of a pool state. */
export interface PoolExact {
  readonly reserveA: Fixed;
  readonly reserveB: Fixed;
  readonly feeRate: Fixed;
  readonly adminFeeShare: Fixed;
}

/**
 * The pool's numbers as exact values. Parsed on every call (≈ 0.9 µs for the four strings, no
 * memo: docs/architecture.md "core purity"). Throws `AMM_INVALID_POOL` for a string that is not a
 * plain decimal.
 */
export function parsePoolExact(pool: PoolState): PoolExact {
  return {
    reserveA: parseFixed(pool.reserveA, 'reserveA'),
    reserveB: parseFixed(pool.reserveB, 'reserveB'),
    feeRate: parseFixed(pool.feeRate, 'feeRate'),
    adminFeeShare: parseFixed(pool.adminFeeShare, 'adminFeeShare'),
  };
}

/** The exact reserve of `token` in `pool` (from `parsePoolExact`), or null if the pool does not hold it. */
export function computeReserveOfExact(pool: PoolState, e: PoolExact, token: TokenRef): Fixed | null {
  if (isSameToken(pool.tokenA, token)) return e.reserveA;
  if (isSameToken(pool.tokenB, token)) return e.reserveB;
  return null;
}
