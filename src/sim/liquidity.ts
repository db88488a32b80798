/**
 * Liquidity-provider math of the simulated pools (docs/protocol/api-decisions.md §5 "adding and removing
 * liquidity"): proportional deposits and withdrawals against the pool's LP supply, with the
 * rounding always in the pool's favour (docs/protocol/api-decisions.md §1: paid in UP, paid out DOWN).
 *
 * - first deposit (supply or a reserve is 0): minted = √(a·b) rounded DOWN; the whole a and b go in.
 * - later deposits: minted = min(a·S/R_a, b·S/R_b) rounded DOWN; the pool takes
 *   a' = minted·R_a/S and b' = minted·R_b/S, each rounded UP (never more than offered: a' ≤ a,
 *   b' ≤ b); the surplus stays with the provider. The value of one LP unit never decreases.
 * - withdrawals: out_a = lp·R_a/S and out_b = lp·R_b/S, each rounded DOWN.
 * All amounts are Numeric 10.
 */

import { toDec } from '../core/amm/state-decimal.js';
import { Dec, roundDown10, roundUp10 } from '../core/money/decimal.js';
import { ServerError } from '../errors/server.js';

export interface PoolReserves {
  readonly reserveA: Dec | string;
  readonly reserveB: Dec | string;
  readonly totalLpSupply: Dec | string;
}

export interface LiquidityChange {
  /** taken in (add) or paid out (remove), token a */
  readonly amountA: Dec;
  readonly amountB: Dec;
  /** LP units minted (add) or burned (remove) */
  readonly lpAmount: Dec;
  readonly newReserveA: Dec;
  readonly newReserveB: Dec;
  readonly newTotalLpSupply: Dec;
}

function invalid(field: string, rule: string, got: Dec): never {
  throw new ServerError('LIQUIDITY_AMOUNT_INVALID', `"${field}" expected ${rule}, got "${got.toFixed()}"`);
}

/** A deposit of up to `amountA`/`amountB`; throws LIQUIDITY_AMOUNT_INVALID if nothing would be minted. */
export function computeLiquidityAdd(pool: PoolReserves, amountA: Dec, amountB: Dec): LiquidityChange {
  if (!amountA.gt(0)) invalid('amountA', 'a positive amount', amountA);
  if (!amountB.gt(0)) invalid('amountB', 'a positive amount', amountB);
  const ra = toDec(pool.reserveA, 'reserveA');
  const rb = toDec(pool.reserveB, 'reserveB');
  const s = toDec(pool.totalLpSupply, 'totalLpSupply');
  let minted: Dec;
  let inA: Dec;
  let inB: Dec;
  if (!s.gt(0) || !ra.gt(0) || !rb.gt(0)) {
    minted = roundDown10(amountA.mul(amountB).sqrt());
    inA = amountA;
    inB = amountB;
  } else {
    minted = roundDown10(Dec.min(amountA.mul(s).div(ra), amountB.mul(s).div(rb)));
    inA = roundUp10(minted.mul(ra).div(s));
    inB = roundUp10(minted.mul(rb).div(s));
  }
  if (!minted.gt(0)) invalid('amountA', 'a deposit large enough to mint LP units', amountA);
  return {
    amountA: inA,
    amountB: inB,
    lpAmount: minted,
    newReserveA: ra.add(inA),
    newReserveB: rb.add(inB),
    newTotalLpSupply: s.add(minted),
  };
}

/** A withdrawal of `lpAmount` LP units; throws LIQUIDITY_AMOUNT_INVALID if lp ≤ 0 or lp > supply. */
export function computeLiquidityRemove(pool: PoolReserves, lpAmount: Dec): LiquidityChange {
  const ra = toDec(pool.reserveA, 'reserveA');
  const rb = toDec(pool.reserveB, 'reserveB');
  const s = toDec(pool.totalLpSupply, 'totalLpSupply');
  if (!lpAmount.gt(0)) invalid('lpAmount', 'a positive amount', lpAmount);
  if (lpAmount.gt(s)) invalid('lpAmount', `at most the LP supply ${s.toFixed()}`, lpAmount);
  const outA = roundDown10(lpAmount.mul(ra).div(s));
  const outB = roundDown10(lpAmount.mul(rb).div(s));
  return {
    amountA: outA,
    amountB: outB,
    lpAmount,
    newReserveA: ra.sub(outA),
    newReserveB: rb.sub(outB),
    newTotalLpSupply: s.sub(lpAmount),
  };
}

/** Opening LP supply of a seeded pool: √(R_a·R_b) rounded DOWN to 10 places. */
export function computeInitialLpSupply(reserveA: Dec | string, reserveB: Dec | string): Dec {
  return roundDown10(toDec(reserveA).mul(toDec(reserveB)).sqrt());
}
