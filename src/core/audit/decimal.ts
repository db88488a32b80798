/**
 * The audit's private decimal.js instance and the small numeric helpers every check uses
 * (api-decisions §1: token amounts are Numeric 10, never JS numbers).
 *
 * Comparisons here are exact unless a tolerance is passed. Nothing in this file rounds a token
 * amount that is then compared for equality: equality of proven amounts is exact.
 */
import { Decimal as DecimalBase } from 'decimal.js';

/** 60 significant digits, half-up; enough for Numeric 38/10 products and square roots. */
export const AuditDecimal = DecimalBase.clone({
  precision: 60,
  rounding: DecimalBase.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type AuditDecimal = InstanceType<typeof AuditDecimal>;

const DECIMAL_RE = /^-?(?:0|[1-9]\d*|\d+)(?:\.\d+)?$/;

/** Parses a plain decimal string ("12.5", "-0.1"); null for anything else (no exponent, no spaces). */
export function parseDecimal(s: unknown): AuditDecimal | null {
  if (typeof s === 'string') {
    if (s.length === 0 || s.length > 80 || !DECIMAL_RE.test(s)) return null;
    return new AuditDecimal(s);
  }
  if (typeof s === 'number') {
    if (!Number.isFinite(s)) return null;
    return new AuditDecimal(s);
  }
  return null;
}

/** True when both parse and are numerically equal (so "1.0" equals "1.0000000000"). */
export function isSameAmount(a: unknown, b: unknown): boolean {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x !== null && y !== null && x.eq(y);
}

/**
 * True when |got − expected| ≤ max(abs, rel × |expected|). Used for values published as JSON
 * numbers or rounded to 10 places by the exchange.
 */
export function isWithin(
  expected: AuditDecimal,
  got: AuditDecimal,
  rel: AuditDecimal | string,
  abs: AuditDecimal | string = '0',
): boolean {
  const bound = AuditDecimal.max(new AuditDecimal(abs), expected.abs().mul(rel));
  return got.sub(expected).abs().lte(bound);
}

/** Relative difference |got − expected| / |expected| (or |got| when expected is 0), as a string with 6 significant digits. */
export function formatRelativeDiff(expected: AuditDecimal, got: AuditDecimal): string {
  const diff = got.sub(expected).abs();
  if (expected.isZero()) return diff.toSignificantDigits(6).toString();
  return diff.div(expected.abs()).toSignificantDigits(6).toString();
}

/** Renders with exactly `dp` decimals, rounding half-up (display and evidence only). */
export function formatFixed(d: AuditDecimal, dp = 10): string {
  return d.toFixed(dp, AuditDecimal.ROUND_HALF_UP);
}
