/**
 * The exact LP-share comparison (src/core/audit/lp-share.ts) reads every plain decimal it is given —
 * whole parts past 2^53, up to 18 decimals, with or without a caller's memo — as the decimal path
 * does, and refuses anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeLpShareValue,
  isLpShareDecrease,
  isLpShareDecreaseExact,
  LP_SHARE_TOLERANCE,
} from '../../src/core/audit/lp-share.js';

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
const amount = fc
  .tuple(digits(1, 24), fc.option(digits(1, 18), { nil: undefined }))
  .map(([w, f]) => (f === undefined ? w : `${w}.${f}`));
const pool = fc.record({ reserveA: amount, reserveB: amount, totalLpSupply: amount });

describe('isLpShareDecreaseExact', () => {
  it('agrees with the decimal path on any plain decimals, with and without a memo', () => {
    const units = new Map<string, bigint | null>();
    fc.assert(
      fc.property(pool, pool, fc.constantFrom(LP_SHARE_TOLERANCE, '0.01', '0'), (b, n, t) => {
        const x = computeLpShareValue(b.reserveA, b.reserveB, b.totalLpSupply);
        const y = computeLpShareValue(n.reserveA, n.reserveB, n.totalLpSupply);
        const exact = isLpShareDecreaseExact(b, n, t);
        expect(isLpShareDecreaseExact(b, n, t, units)).toBe(exact);
        if (x === null || y === null) expect(exact).toBeNull();
        else expect(exact).toBe(isLpShareDecrease(x, y, t));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what is not a plain non-negative decimal of at most 18 decimals', () => {
    const ok = { reserveA: '1', reserveB: '1', totalLpSupply: '1' };
    for (const bad of ['', '.', '1.', '.5', '-1', '+1', '1e5', '1.2.3', ' 1', '1.0000000000000000001', 'abc'])
      expect(isLpShareDecreaseExact(ok, { ...ok, reserveA: bad }), bad).toBeNull();
    expect(isLpShareDecreaseExact(ok, { ...ok, reserveA: '1.000000000000000001' })).toBe(false);
  });
});
