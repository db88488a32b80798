/**
 * An exact rational reference for the AMM math (test-only): amounts as bigint in units of 1e-10
 * (Daml Numeric 10), results as fractions, explicit floor/ceil. Independent of decimal.js, so the
 * core's rounding directions can be checked against it.
 */
export const UNIT = 10_000_000_000n;

export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** "123.45" → 1234500000000n (≤ 10 decimals, optional '-'). */
export function toUnits(s: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,10}))?$/.exec(s);
  if (m === null) throw new Error(`not a Numeric 10: ${s}`);
  const v = BigInt(m[2]!) * UNIT + BigInt((m[3] ?? '').padEnd(10, '0'));
  return m[1] === '-' ? -v : v;
}

/** 1234500000000n → "123.4500000000" */
export function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const a = neg ? -u : u;
  return `${neg ? '-' : ''}${a / UNIT}.${(a % UNIT).toString().padStart(10, '0')}`;
}

export function floorDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  return num % den !== 0n && num < 0n !== den < 0n ? q - 1n : q;
}

export function ceilDiv(num: bigint, den: bigint): bigint {
  return -floorDiv(-num, den);
}

/**
 * Exact swap output in units (fraction): out = in(1−f)R_out/(R_in + in(1−f)), all in units,
 * f in units (f = fUnits / UNIT).
 */
export function exactSwapOutput(rIn: bigint, rOut: bigint, amountIn: bigint, fUnits: bigint): Fraction {
  // in(1−f) = amountIn (UNIT − f) / UNIT  (units)
  const effNum = amountIn * (UNIT - fUnits); // over UNIT
  return { num: effNum * rOut, den: rIn * UNIT + effNum };
}

/** Exact input needed for `out` (fraction, units): R_in·out / ((R_out − out)(1−f)). */
export function exactSwapInput(rIn: bigint, rOut: bigint, out: bigint, fUnits: bigint): Fraction {
  return { num: rIn * out * UNIT, den: (rOut - out) * (UNIT - fUnits) };
}

/** floor(fraction) in units */
export function floorUnits(f: Fraction): bigint {
  return floorDiv(f.num, f.den);
}

export function ceilUnits(f: Fraction): bigint {
  return ceilDiv(f.num, f.den);
}

/** round half-up (positive values) of a fraction of units */
function halfUpUnits(f: Fraction): bigint {
  return floorDiv(2n * f.num + f.den, 2n * f.den);
}

/** a price x/y (both in units) as a 10-place half-up string */
export function priceString(x: bigint, y: bigint): string {
  return fromUnits(halfUpUnits({ num: x * UNIT, den: y }));
}
