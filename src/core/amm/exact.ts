/**
 * Exact fixed-point arithmetic on bigint for the AMM hot paths (docs/protocol/api-decisions.md §1): a value
 * is `n / 10^s`. Sums, differences and products are exact; a quotient is computed exactly as a
 * rational and rounded ONCE to 10 places with an integer remainder, so every result is the
 * correctly rounded value whatever the operand sizes — no working precision to choose.
 * decimal.js (`Dec`) stays the public currency; this is the engine underneath.
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { Dec, SCALE } from '../money/decimal.js';

/** The decimal `n / 10^s` (s ≥ 0). */
export interface Fixed {
  readonly n: bigint;
  readonly s: number;
}

/** DOWN: toward zero; UP: away from zero; HALF_UP: to nearest, ties away from zero (decimal.js names). */
export type Rounding = 'down' | 'up' | 'half-up';

/** 10^0 … 10^80 (scales of real amounts stay far below; larger powers are computed) */
const POW10: readonly bigint[] = Object.freeze(Array.from({ length: 81 }, (_, i) => 10n ** BigInt(i)));
function pow10(k: number): bigint {
  return POW10[k] ?? 10n ** BigInt(k);
}

export const FX_ZERO: Fixed = { n: 0n, s: 0 };
export const FX_ONE: Fixed = { n: 1n, s: 0 };

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Reads a plain decimal string (optional '-', digits, optional fraction) exactly. Throws
 * `AMM_INVALID_POOL` naming `field` otherwise (state strings, not request bodies).
 */
export function parseFixed(text: string, field = 'amount'): Fixed {
  const m = PLAIN.exec(text);
  if (m === null) {
    throw new AmmError(
      'AMM_INVALID_POOL',
      `"${field}" expected a plain decimal string, got ${formatGot(text)}`,
    );
  }
  const frac = m[3] ?? '';
  const n = BigInt((m[2] as string) + frac);
  return { n: m[1] === '-' ? -n : n, s: frac.length };
}

/** A Dec or a state string as an exact Fixed. */
export function toFx(value: Dec | string, field = 'amount'): Fixed {
  return parseFixed(typeof value === 'string' ? value : value.toFixed(), field);
}

/** Plain decimal text, all `s` fraction digits kept ("-1.50"). */
export function formatFixed(f: Fixed): string {
  if (f.s === 0) return f.n.toString();
  const neg = f.n < 0n;
  const digits = (neg ? -f.n : f.n).toString().padStart(f.s + 1, '0');
  const cut = digits.length - f.s;
  return `${neg ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** The exact Dec of a Fixed. */
export function fixedToDec(f: Fixed): Dec {
  return new Dec(formatFixed(f));
}

function align(a: Fixed, b: Fixed): [bigint, bigint, number] {
  if (a.s === b.s) return [a.n, b.n, a.s];
  return a.s > b.s ? [a.n, b.n * pow10(a.s - b.s), a.s] : [a.n * pow10(b.s - a.s), b.n, b.s];
}

export function addFx(a: Fixed, b: Fixed): Fixed {
  const [x, y, s] = align(a, b);
  return { n: x + y, s };
}

export function subFx(a: Fixed, b: Fixed): Fixed {
  const [x, y, s] = align(a, b);
  return { n: x - y, s };
}

export function mulFx(a: Fixed, b: Fixed): Fixed {
  return { n: a.n * b.n, s: a.s + b.s };
}

/** −1, 0 or 1 as a < b, a = b, a > b. */
export function cmpFx(a: Fixed, b: Fixed): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The integer quotient num/den (den > 0, num ≥ 0) rounded by `mode`. */
function roundQuotient(num: bigint, den: bigint, mode: Rounding): bigint {
  const q = num / den;
  const r = num - q * den;
  if (r === 0n) return q;
  if (mode === 'down') return q;
  if (mode === 'up') return q + 1n;
  return 2n * r >= den ? q + 1n : q;
}

/** The exact quotient a / b rounded to `places` decimals by `mode`. Throws on b = 0. */
export function divFx(a: Fixed, b: Fixed, mode: Rounding, places = SCALE): Fixed {
  if (b.n === 0n) throw new AmmError('AMM_INVALID_POOL', '"divisor" expected a non-zero value, got 0');
  // a/b · 10^places = a.n·10^(b.s + places) / (b.n·10^a.s)
  let num = a.n * pow10(b.s + places);
  let den = b.n * pow10(a.s);
  const neg = num < 0n !== den < 0n && num !== 0n;
  if (num < 0n) num = -num;
  if (den < 0n) den = -den;
  const q = roundQuotient(num, den, mode);
  return { n: neg ? -q : q, s: places };
}

/** `a` rounded to `places` decimals by `mode` (exact when it has no more places). */
export function roundFx(a: Fixed, mode: Rounding, places = SCALE): Fixed {
  if (a.s <= places) return a;
  const neg = a.n < 0n;
  const q = roundQuotient(neg ? -a.n : a.n, pow10(a.s - places), mode);
  return { n: neg ? -q : q, s: places };
}

/** Exactly `places` decimals, half-up (the `formatAmount` rule): "100.0000000000", never "-0.…". */
export function formatFixedPlaces(a: Fixed, places = SCALE): string {
  const r = roundFx(a, 'half-up', places);
  const n = r.s === places ? r.n : r.n * pow10(places - r.s);
  return formatFixed({ n, s: places });
}

/** Half-up to `places` decimals, trailing zeros and a bare '.' dropped: "2", "0.7948" (`formatTrimmed`). */
export function formatFixedTrimmed(a: Fixed, places = SCALE): string {
  const text = formatFixed(roundFx(a, 'half-up', places));
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
