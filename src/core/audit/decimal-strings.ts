/**
 * Decimal strings as the audit checks read them: parsed leniently (null, not an error), compared
 * exactly, formatted for evidence (api-decisions §1: token amounts are Numeric 10, never JS
 * numbers), over the one money instance of src/core/money/decimal.ts (precision and rounding are
 * stated there).
 *
 * Comparisons here are exact unless a tolerance is passed. Nothing in this file rounds a token
 * amount that is then compared for equality: equality of proven amounts is exact.
 */
import { Dec } from '../money/decimal.js';

const DECIMAL_RE = /^-?(?:0|[1-9]\d*|\d+)(?:\.\d+)?$/;

/** Parses a plain decimal string ("12.5", "-0.1"); null for anything else (no exponent, no spaces). */
export function parseDecimal(s: unknown): Dec | null {
  if (typeof s === 'string') {
    if (s.length === 0 || s.length > 80 || !DECIMAL_RE.test(s)) return null;
    return new Dec(s);
  }
  if (typeof s === 'number') {
    if (!Number.isFinite(s)) return null;
    return new Dec(s);
  }
  return null;
}

/** True when both parse and are numerically equal (so "1.0" equals "1.0000000000"). */
export function isSameAmount(a: unknown, b: unknown): boolean {
  // the same text is the same number when it is a decimal at all (no Decimal built: replay's hot path)
  if (typeof a === 'string' && a === b) return a.length > 0 && a.length <= 80 && DECIMAL_RE.test(a);
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x !== null && y !== null && x.eq(y);
}

/** Renders with exactly `dp` decimals, rounding half-up (display and evidence only). */
export function formatFixed(d: Dec, dp = 10): string {
  return d.toFixed(dp, Dec.ROUND_HALF_UP);
}
