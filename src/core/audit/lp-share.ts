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

/** 10^0 … 10^18 */
const POW10_18: readonly bigint[] = Object.freeze(Array.from({ length: 19 }, (_, i) => 10n ** BigInt(i)));
const ONE_18 = 10n ** 18n;
const TWO_53 = 2 ** 53;

/**
 * A non-negative plain decimal (`digits` or `digits.digits`, at most 18 decimals) as bigint units of
 * 1e-18, or null. One charCode pass; the parts go through a Number while they are exact (≤ 2^53).
 */
function parseUnits18(s: string): bigint | null {
  const n = s.length;
  let dot = -1;
  let whole = 0;
  let frac = 0;
  let fracDigits = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (dot >= 0 || i === 0 || i === n - 1) return null;
      dot = i;
    } else if (c < 48 || c > 57) return null;
    else if (dot < 0) whole = whole * 10 + (c - 48);
    else {
      frac = frac * 10 + (c - 48);
      fracDigits++;
    }
  }
  if (n === 0 || fracDigits > 18) return null;
  const scale = POW10_18[18 - fracDigits] as bigint;
  if (whole < TWO_53 && frac < TWO_53) return BigInt(whole) * ONE_18 + BigInt(frac) * scale;
  const w = BigInt(dot < 0 ? s : s.slice(0, dot)) * ONE_18;
  return fracDigits === 0 ? w : w + BigInt(s.slice(dot + 1)) * scale;
}

/** `parseUnits18(s)`, remembered in `units` when given (bounded: cleared past 4,096 strings). */
function toUnits18(s: string, units: Map<string, bigint | null> | undefined): bigint | null {
  if (units === undefined) return parseUnits18(s);
  let u = units.get(s);
  if (u === undefined) {
    u = parseUnits18(s);
    if (units.size >= 4096) units.clear();
    units.set(s, u);
  }
  return u;
}

/** the default tolerance in units of 1e-18 (a constant) */
const DEFAULT_TOLERANCE_UNITS = parseUnits18(LP_SHARE_TOLERANCE);

/**
 * Exact test of an LP-share value decrease beyond the tolerance, in bigint:
 * a₁b₁·L₀²·10²ᵏ < a₀b₀·L₁²·(10ᵏ − t·10ᵏ)² with t = tolerance written in ≤ 18 decimals. Returns
 * null when an input is not a plain non-negative decimal (callers then use the decimal path).
 * `units`: the caller's memo of conversions (a series compares each point with the previous one,
 * so every amount is converted twice; one Map per series halves that).
 */
export function isLpShareDecreaseExact(
  before: { readonly reserveA: string; readonly reserveB: string; readonly totalLpSupply: string },
  now: { readonly reserveA: string; readonly reserveB: string; readonly totalLpSupply: string },
  tolerance: string = LP_SHARE_TOLERANCE,
  units?: Map<string, bigint | null>,
): boolean | null {
  const a0 = toUnits18(before.reserveA, units);
  const b0 = toUnits18(before.reserveB, units);
  const l0 = toUnits18(before.totalLpSupply, units);
  const a1 = toUnits18(now.reserveA, units);
  const b1 = toUnits18(now.reserveB, units);
  const l1 = toUnits18(now.totalLpSupply, units);
  const t = tolerance === LP_SHARE_TOLERANCE ? DEFAULT_TOLERANCE_UNITS : toUnits18(tolerance, units);
  if (a0 === null || b0 === null || l0 === null || a1 === null || b1 === null || l1 === null || t === null)
    return null;
  if (l0 === 0n || l1 === 0n) return null;
  const one = ONE_18;
  const k = one - t;
  return a1 * b1 * l0 * l0 * one * one < a0 * b0 * l1 * l1 * k * k;
}
