/**
 * The simulated external CC-USD reference price stream (api-decisions §2: `source: "external"`
 * markets are reference price streams; "the reference server simulates that stream").
 * A deterministic function of time — no RNG, so it never disturbs the seeded ledger stream:
 *
 *   p(t) = base × (1 + 0.02·sin(2π·m/1440) + 0.005·sin(2π·m/97)),   m = ⌊t / 60 000⌋ (whole minutes)
 *
 * i.e. a ±2 % daily swing plus a small faster wiggle, constant within each minute. The factor is
 * computed in floating point (a simulated quote, not a token amount) and rendered to 12 decimals
 * before it touches the decimal base; the result is HALF-UP to 10 places.
 */

import { formatAmount } from '../core/amm/format.js';
import { toDec } from '../core/amm/state-decimal.js';
import type { Amount } from '../core/amm/types.js';
import { Dec, roundHalfUp10 } from '../core/money/decimal.js';

/** CC-USD at `tsMs` around `base` (10 decimals). */
export function computeReferencePrice(base: Amount, tsMs: number): Amount {
  const m = Math.floor(tsMs / 60_000);
  const factor = 1 + 0.02 * Math.sin((2 * Math.PI * m) / 1440) + 0.005 * Math.sin((2 * Math.PI * m) / 97);
  return formatAmount(roundHalfUp10(toDec(base, 'ccUsdPrice').mul(new Dec(factor.toFixed(12)))));
}
