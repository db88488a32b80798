/**
 * The one private decimal.js instance of the AMM core (spec/api-decisions.md §1). Never the global
 * `Decimal`: precision 80 significant digits (Numeric 10 amounts have ≤ 38), exponent notation
 * disabled, and explicit rounding helpers for the three rounding rules of §1:
 * pool payouts DOWN, amounts paid in UP, prices and fractions HALF-UP, all to 10 places.
 */
import { Decimal } from 'decimal.js';
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';

export const Dec = Decimal.clone({
  precision: 80,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  maxE: 9e15,
  minE: -9e15,
});
export type Dec = InstanceType<typeof Dec>;

/** Number of decimal places of Daml `Numeric 10`. */
export const SCALE = 10;

export const ZERO: Dec = new Dec(0);
export const ONE: Dec = new Dec(1);

/** Rounds toward zero to 10 places (payouts by the pool: swap outputs, protocol fee). */
export function roundDown10(d: Dec): Dec {
  return d.toDecimalPlaces(SCALE, Dec.ROUND_DOWN);
}

/** Rounds away from zero to 10 places (amounts paid in: swap inputs, fees charged). */
export function roundUp10(d: Dec): Dec {
  return d.toDecimalPlaces(SCALE, Dec.ROUND_UP);
}

/** Rounds half-up to 10 places (prices, fractions, valuations). */
export function roundHalfUp10(d: Dec): Dec {
  return d.toDecimalPlaces(SCALE, Dec.ROUND_HALF_UP);
}

/**
 * Reads a decimal string that came from our own state (a pool reserve, a fee rate). Not for hostile
 * input — use `parseAmount` for request bodies. Throws `AMM_INVALID_POOL` if the string is not a
 * plain decimal (optional minus sign, digits, optional fraction).
 */
export function toDec(value: string | Dec, field = 'amount'): Dec {
  if (typeof value !== 'string') return value;
  // decimal.js accepts hex/binary/exponent forms; state strings are plain decimals.
  if (!/^-?\d+(\.\d+)?$/.test(value)) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"${field}" expected a plain decimal string, got ${formatGot(value)}`,
    );
  }
  return new Dec(value);
}
