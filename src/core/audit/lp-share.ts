/**
 * The value of one LP share, √(reserve_a × reserve_b) / total_lp_supply (the issue "History").
 * Swap fees stay in the pool and deposits/withdrawals round in the pool's favour
 * (docs/protocol/api-decisions.md §1), so this value never decreases; the history check allows a relative
 * tolerance of LP_SHARE_TOLERANCE for rounding of the 10-decimal amounts.
 */
import { Dec } from '../money/decimal.js';
import { parseDecimal } from './decimal-strings.js';

/** Significant digits the display value is computed to before it is shown with 20. */
const DISPLAY_DIGITS = 24;

/**
 * √(a × b) / L to 20 significant digits (display: the square root and the quotient each rounded
 * half-up to 24 significant digits, then 20 shown), or null.
 */
export function formatLpShareValue(reserveA: string, reserveB: string, totalLpSupply: string): string | null {
  const a = parseDecimal(reserveA);
  const b = parseDecimal(reserveB);
  const l = parseDecimal(totalLpSupply);
  if (a === null || b === null || l === null || l.lte(0) || a.lt(0) || b.lt(0)) return null;
  return a
    .mul(b)
    .sqrt()
    .toSignificantDigits(DISPLAY_DIGITS, Dec.ROUND_HALF_UP)
    .div(l)
    .toSignificantDigits(DISPLAY_DIGITS, Dec.ROUND_HALF_UP)
    .toSignificantDigits(20, Dec.ROUND_HALF_UP)
    .toString();
}

/** Default relative tolerance on an LP-share value decrease: 1e-9 (one part per billion). */
export const LP_SHARE_TOLERANCE = '0.000000001';

/**
 * √(a × b) / L computed with the money instance's 80 significant digits (half-up at the 80th);
 * null when an input is not a decimal or L ≤ 0.
 */
export function computeLpShareValue(reserveA: string, reserveB: string, totalLpSupply: string): Dec | null {
  const a = parseDecimal(reserveA);
  const b = parseDecimal(reserveB);
  const l = parseDecimal(totalLpSupply);
  if (a === null || b === null || l === null || l.lte(0) || a.lt(0) || b.lt(0)) return null;
  return a.mul(b).sqrt().div(l);
}

/** True when `now` is below `before × (1 − tolerance)`. */
export function isLpShareDecrease(before: Dec, now: Dec, tolerance: string = LP_SHARE_TOLERANCE): boolean {
  return now.lt(before.mul(new Dec(1).sub(tolerance)));
}

/**
 * (√(a·b)/L)² = a·b/L², exact in decimal (no square root): the history check compares these,
 * since v_now < v_before·(1 − t) ⇔ q_now < q_before·(1 − t)² for non-negative values.
 */
export function computeLpShareSquare(reserveA: string, reserveB: string, totalLpSupply: string): Dec | null {
  const a = parseDecimal(reserveA);
  const b = parseDecimal(reserveB);
  const l = parseDecimal(totalLpSupply);
  if (a === null || b === null || l === null || l.lte(0) || a.lt(0) || b.lt(0)) return null;
  return a.mul(b).div(l.mul(l));
}

/** True when the squared value `now` is below `before × (1 − tolerance)²`. */
export function isLpShareSquareDecrease(
  before: Dec,
  now: Dec,
  tolerance: string = LP_SHARE_TOLERANCE,
): boolean {
  const k = new Dec(1).sub(tolerance);
  return now.lt(before.mul(k).mul(k));
}

const PLAIN = /^\d+(?:\.\d{1,18})?$/;
const ZEROS_18 = '000000000000000000';
const ONE_18 = 10n ** 18n;

/** A non-negative plain decimal as bigint units of 1e-18, or null (one BigInt parse of the digits). */
function toUnits18(s: string): bigint | null {
  if (!PLAIN.test(s)) return null;
  const dot = s.indexOf('.');
  if (dot < 0) return BigInt(s + ZEROS_18);
  const frac = s.length - dot - 1;
  return BigInt(s.slice(0, dot) + s.slice(dot + 1) + ZEROS_18.slice(frac));
}

/**
 * Exact test of an LP-share value decrease beyond the tolerance, in bigint:
 * a₁b₁·L₀²·10²ᵏ < a₀b₀·L₁²·(10ᵏ − t·10ᵏ)² with t = tolerance written in ≤ 18 decimals. Returns
 * null when an input is not a plain non-negative decimal (callers then use the decimal path).
 */
export function isLpShareDecreaseExact(
  before: { readonly reserveA: string; readonly reserveB: string; readonly totalLpSupply: string },
  now: { readonly reserveA: string; readonly reserveB: string; readonly totalLpSupply: string },
  tolerance: string = LP_SHARE_TOLERANCE,
): boolean | null {
  const a0 = toUnits18(before.reserveA);
  const b0 = toUnits18(before.reserveB);
  const l0 = toUnits18(before.totalLpSupply);
  const a1 = toUnits18(now.reserveA);
  const b1 = toUnits18(now.reserveB);
  const l1 = toUnits18(now.totalLpSupply);
  const t = toUnits18(tolerance);
  if (a0 === null || b0 === null || l0 === null || a1 === null || b1 === null || l1 === null || t === null)
    return null;
  if (l0 === 0n || l1 === 0n) return null;
  const one = ONE_18;
  const k = one - t;
  return a1 * b1 * l0 * l0 * one * one < a0 * b0 * l1 * l1 * k * k;
}
