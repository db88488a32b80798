/**
 * Money: THE one configured decimal.js instance of the core (docs/protocol/api-decisions.md §1; design
 * "Money": one private configured instance, never the global `Decimal`). The AMM computes with it,
 * the simulator books with it and the audit compares with it, so every part rounds alike.
 *
 * Configuration, stated once:
 *   - precision 80 significant digits: a Numeric 10 amount has at most 38, so sums, products and
 *     quotients of two amounts and square roots (order book levels) are exact or far below 10⁻¹⁰;
 *   - default rounding HALF-UP (prices and fractions, §1); every function that rounds names its mode;
 *   - exponent notation disabled (`toExpNeg`/`toExpPos`), exponent range ±9e15.
 * The three rounding rules of §1, all to 10 places: pool payouts DOWN (`roundDown10`), amounts
 * paid in UP (`roundUp10`), prices and fractions HALF-UP (`roundHalfUp10`).
 */
import { Decimal } from 'decimal.js';

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
