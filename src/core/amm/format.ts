/**
 * Text ↔ decimal for the AMM API (docs/protocol/api-decisions.md §1): 10-decimal amounts, the trimmed
 * `network_fee.amount`, two-decimal `estimated_time_seconds`, and the strict request-amount parser.
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { Dec, SCALE } from '../money/decimal.js';
import { toDec } from './state-decimal.js';

/** Maximum number of digits (integer + fraction) of a request amount. */
const MAX_AMOUNT_DIGITS = 28;

/**
 * Renders exactly 10 decimal places, trailing zeros kept, never an exponent ("100.0000000000").
 * Rounds half-up if the value has more than 10 places (callers round first with the rule they need).
 */
export function formatAmount(d: Dec | string): string {
  const s = toDec(d).toFixed(SCALE, Dec.ROUND_HALF_UP);
  return s === '-0.0000000000' ? '0.0000000000' : s;
}

/** Renders without trailing zeros or exponent: "2", "0.7948", "0" (network_fee.amount). Half-up at 10 places. */
export function formatTrimmed(d: Dec | string): string {
  const s = toDec(d).toDecimalPlaces(SCALE, Dec.ROUND_HALF_UP).toFixed();
  return s === '-0' ? '0' : s;
}

/** Renders seconds with two decimals, half-up: "12.40" (estimated_time_seconds). */
export function formatSeconds(d: Dec | string): string {
  return toDec(d).toFixed(2, Dec.ROUND_HALF_UP);
}

/** Digits without a leading zero (a lone `0` before the point is fine), optional fraction. */
const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parses a request amount: a plain positive decimal string — digits, optionally one '.' and 1..10
 * fraction digits, no sign, no exponent, no spaces, no leading zero (`00100`; `0.5` is fine), at
 * most 28 digits, greater than zero.
 * Exact (no rounding). Throws `AMM_INVALID_AMOUNT` naming `field`.
 */
export function parseAmount(text: unknown, field: string): Dec {
  const fail = (rule: string): never => {
    throw new AmmError('AMM_INVALID_AMOUNT', `"${field}" expected ${rule}, got ${formatGot(text)}`, {
      details: { field },
    });
  };
  if (typeof text !== 'string') return fail('a positive decimal string');
  const m = PLAIN_DECIMAL.exec(text);
  if (m === null) return fail('a positive decimal string');
  const intPart = m[1] ?? '';
  const fracPart = m[2] ?? '';
  if (fracPart.length > SCALE) return fail(`at most ${SCALE} decimal places`);
  if (intPart.length + fracPart.length > MAX_AMOUNT_DIGITS)
    return fail(`at most ${MAX_AMOUNT_DIGITS} digits`);
  const d = new Dec(text);
  if (d.lte(0)) return fail('a positive decimal string');
  return d;
}

/** Whether `text` passes `parseAmount` (same rules), without building a decimal. */
export function isAmountText(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const m = PLAIN_DECIMAL.exec(text);
  if (m === null) return false;
  const intPart = m[1] ?? '';
  const fracPart = m[2] ?? '';
  return (
    fracPart.length <= SCALE && intPart.length + fracPart.length <= MAX_AMOUNT_DIGITS && /[1-9]/.test(text)
  );
}
