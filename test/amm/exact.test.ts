/** Exact bigint fixed-point (src/core/amm/exact.ts) against decimal.js and the bigint reference; isAmountText ≡ parseAmount. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divFx,
  formatFixed,
  formatFixedPlaces,
  formatFixedTrimmed,
  mulFx,
  parseFixed,
  roundFx,
  subFx,
} from '../../src/core/amm/exact.js';
import { isAmountText } from '../../src/core/amm/format.js';
import { Dec, formatAmount, formatTrimmed, parseAmount } from '../../src/core/amm/index.js';
import { ceilDiv, floorDiv, fromUnits, toUnits } from './reference.js';

const numeric10 = fc.tuple(fc.bigInt({ min: -(10n ** 28n), max: 10n ** 28n })).map(([u]) => fromUnits(u));

describe('exact fixed-point', () => {
  it('parses and formats plain decimals losslessly', () => {
    expect(formatFixed(parseFixed('-0.0500'))).toBe('-0.0500');
    expect(formatFixed(parseFixed('12'))).toBe('12');
    expect(formatFixed(parseFixed('0.0000000001'))).toBe('0.0000000001');
    for (const bad of ['1e5', '0x10', ' 1', '1.', '.5', ''])
      expect(() => parseFixed(bad)).toThrow(/AMM_INVALID_POOL/);
  });

  it('quotients rounded once to 10 places equal the bigint floor/ceil/half-up reference', () => {
    fc.assert(
      fc.property(numeric10, numeric10, (a, b) => {
        const ua = toUnits(a);
        const ub = toUnits(b);
        fc.pre(ub !== 0n);
        // a/b in units = ua·10^10 / ub
        const num = ua * 10_000_000_000n;
        const down = num / ub; // toward zero
        const floor = floorDiv(num, ub);
        const ceil = ceilDiv(num, ub);
        const up = down === floor ? ceil : floor; // away from zero
        const exact = (q: bigint): boolean => q * ub === num;
        const absNum = num < 0n ? -num : num;
        const absDen = ub < 0n ? -ub : ub;
        const qa = absNum / absDen;
        const ha = 2n * (absNum - qa * absDen) >= absDen ? qa + 1n : qa;
        const half = num < 0n !== ub < 0n ? -ha : ha;
        const fa = parseFixed(a);
        const fb = parseFixed(b);
        expect(fromUnits(divFx(fa, fb, 'down').n)).toBe(fromUnits(down));
        expect(fromUnits(divFx(fa, fb, 'up').n)).toBe(fromUnits(exact(down) ? down : up));
        expect(fromUnits(divFx(fa, fb, 'half-up').n)).toBe(fromUnits(half));
      }),
      { numRuns: 400 },
    );
  });

  it('products, differences and rendering agree with decimal.js (formatAmount/formatTrimmed)', () => {
    fc.assert(
      fc.property(numeric10, numeric10, (a, b) => {
        const p = mulFx(parseFixed(a), parseFixed(b));
        const d = new Dec(a).mul(b);
        expect(formatFixedPlaces(p)).toBe(formatAmount(d.toDecimalPlaces(10, Dec.ROUND_HALF_UP)));
        expect(formatFixedTrimmed(p)).toBe(formatTrimmed(d));
        expect(formatFixed(subFx(parseFixed(a), parseFixed(b)))).toBe(new Dec(a).sub(b).toFixed(10));
        // decimal.js writes a negative zero as "-0.0000000000"; bigint has no negative zero
        const noNegZero = (t: string): string => (t === '-0.0000000000' ? '0.0000000000' : t);
        expect(formatFixedPlaces(roundFx(p, 'down'))).toBe(noNegZero(d.toFixed(10, Dec.ROUND_DOWN)));
        expect(formatFixedPlaces(roundFx(p, 'up'))).toBe(noNegZero(d.toFixed(10, Dec.ROUND_UP)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('isAmountText', () => {
  it('accepts exactly what parseAmount accepts', () => {
    const parses = (t: unknown): boolean => {
      try {
        parseAmount(t, 'x');
        return true;
      } catch {
        return false;
      }
    };
    const samples: unknown[] = [
      '1',
      '0',
      '0.0',
      '0.0000000001',
      '00.10',
      '1.',
      '.1',
      '1e3',
      '-1',
      ' 1',
      100,
      null,
    ];
    samples.push('9'.repeat(28), '9'.repeat(29), `1.${'0'.repeat(10)}`, `1.${'0'.repeat(11)}`);
    for (const t of samples) expect(isAmountText(t), String(t)).toBe(parses(t));
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.]{0,32}$/), (t) => {
        expect(isAmountText(t)).toBe(parses(t));
      }),
      { numRuns: 500 },
    );
  });
});
