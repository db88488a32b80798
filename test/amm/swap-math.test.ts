/** Differential and property tests of the constant-product math against the exact rational reference. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeCcValue,
  computeMidPrice,
  computePriceAfter,
  computeSwapInput,
  computeSwapOutput,
  computeTvlCc,
  Dec,
  type PoolState,
  type Token,
} from '../../src/core/amm/index.js';
import { computeFeeSplit, computeSlippage } from '../../src/core/amm/swap-math.js';
import { computeSwapHop } from '../../src/core/amm/swap-plan.js';
import { isAmmError } from '../../src/errors/index.js';
import {
  ceilUnits,
  exactSwapInput,
  exactSwapOutput,
  floorUnits,
  fromUnits,
  priceString,
  toUnits,
  UNIT,
} from './reference.js';

const reserve = fc.bigInt({ min: UNIT, max: 10n ** 17n * UNIT });
const amount = fc.bigInt({ min: 1n, max: 10n ** 12n * UNIT });
/** fee rates 0 .. 0.1 with up to 10 places */
const fee = fc.bigInt({ min: 0n, max: UNIT / 10n });
const share = fc.bigInt({ min: 0n, max: UNIT });

const CC: Token = { admin: 'DSO::1220aa', id: 'Amulet', name: 'CC', symbol: 'CC', priceAggregatorId: null };
const TOK: Token = {
  admin: 'issuer::1220bb',
  id: 'TOK',
  name: 'Tok',
  symbol: 'TOK',
  priceAggregatorId: null,
};

function pool(ra: bigint, rb: bigint, feeUnits: bigint, shareUnits: bigint): PoolState {
  return {
    poolId: 'p1',
    tokenA: TOK,
    tokenB: CC,
    reserveA: fromUnits(ra),
    reserveB: fromUnits(rb),
    totalLpSupply: '1.0000000000',
    feeRate: fromUnits(feeUnits),
    adminFeeShare: fromUnits(shareUnits),
    active: true,
    sequence: 0n,
    reserveContract: {
      contractId: '00',
      updateId: 'u',
      createdAtMicros: 0n,
      createdEventBlob: '',
      packageId: 'p',
      packageName: 'amm-pools',
      moduleName: 'Amm.Pool',
      entityName: 'PoolReserve',
    },
  };
}

describe('computeSwapOutput vs exact rational reference', () => {
  it('equals floor10 of the exact output: ≤ exact and > exact − 1e-10', () => {
    fc.assert(
      fc.property(reserve, reserve, amount, fee, (rIn, rOut, a, f) => {
        const got = toUnits(
          computeSwapOutput({
            reserveIn: fromUnits(rIn),
            reserveOut: fromUnits(rOut),
            amountIn: fromUnits(a),
            feeRate: fromUnits(f),
          }).toFixed(10),
        );
        const exact = exactSwapOutput(rIn, rOut, a, f);
        expect(got).toBe(floorUnits(exact));
        // got ≤ exact  <=>  got·den ≤ num ;  got > exact − 1 unit  <=>  (got+1)·den > num
        expect(got * exact.den <= exact.num).toBe(true);
        expect((got + 1n) * exact.den > exact.num).toBe(true);
        expect(got < rOut).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('rejects empty reserves with a typed error', () => {
    try {
      computeSwapOutput({ reserveIn: '0', reserveOut: '5', amountIn: '1', feeRate: '0.003' });
      expect.unreachable();
    } catch (e) {
      expect(isAmmError(e) && e.code).toBe('AMM_INSUFFICIENT_LIQUIDITY');
    }
  });
});

describe('computeSwapInput vs exact rational reference', () => {
  it('equals ceil10 of the exact input and buys at least the wanted output', () => {
    fc.assert(
      fc.property(reserve, reserve, fc.bigInt({ min: 1n, max: 10n ** 6n }), fee, (rIn, rOut, parts, f) => {
        const out = (rOut * parts) / (10n ** 6n + 1n); // strictly below the reserve
        fc.pre(out > 0n);
        const got = toUnits(
          computeSwapInput({
            reserveIn: fromUnits(rIn),
            reserveOut: fromUnits(rOut),
            amountOut: fromUnits(out),
            feeRate: fromUnits(f),
          }).toFixed(10),
        );
        const exact = exactSwapInput(rIn, rOut, out, f);
        expect(got).toBe(ceilUnits(exact));
        expect(got * exact.den >= exact.num).toBe(true);
        // paying `got` yields at least `out` (exact output, before the payout rounding)
        const back = exactSwapOutput(rIn, rOut, got, f);
        expect(back.num >= out * back.den).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an output ≥ the reserve', () => {
    expect(() =>
      computeSwapInput({ reserveIn: '10', reserveOut: '5', amountOut: '5', feeRate: '0' }),
    ).toThrow(/AMM_INSUFFICIENT_LIQUIDITY/);
  });
});

describe('swap hop properties', () => {
  it('k = R_a × R_b never decreases, output < reserve, fees add up, reserves match the formulas', () => {
    fc.assert(
      fc.property(reserve, reserve, amount, fee, share, fc.boolean(), (ra, rb, a, f, s, sellA) => {
        const p = pool(ra, rb, f, s);
        const [sell, buy] = sellA ? [TOK, CC] : [CC, TOK];
        const [rIn, rOut] = sellA ? [ra, rb] : [rb, ra];
        const exactOut = floorUnits(exactSwapOutput(rIn, rOut, a, f));
        fc.pre(exactOut > 0n);
        const hop = computeSwapHop(p, sell, buy, toDecStr(a));
        const out = toUnits(hop.amountOut.toFixed(10));
        const poolFee = toUnits(hop.poolFee.toFixed(10));
        const protocol = toUnits(hop.protocolFee.toFixed(10));
        const lp = toUnits(hop.lpFee.toFixed(10));
        expect(out).toBe(exactOut);
        expect(poolFee).toBe(ceilUnits({ num: a * f, den: UNIT }));
        expect(protocol).toBe(floorUnits({ num: a * f * s, den: UNIT * UNIT }));
        expect(protocol + lp).toBe(poolFee);
        const na = toUnits(hop.newReserveA.toFixed(10));
        const nb = toUnits(hop.newReserveB.toFixed(10));
        const [nIn, nOut] = sellA ? [na, nb] : [nb, na];
        expect(nIn).toBe(rIn + a - protocol);
        expect(nOut).toBe(rOut - out);
        expect(nOut > 0n).toBe(true);
        expect(na * nb >= ra * rb).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('splitting a swap in two never yields more than one swap of the sum', () => {
    fc.assert(
      fc.property(reserve, reserve, amount, amount, fee, share, (ra, rb, a1, a2, f, s) => {
        const p = pool(ra, rb, f, s);
        fc.pre(floorUnits(exactSwapOutput(ra, rb, a1, f)) > 0n);
        fc.pre(floorUnits(exactSwapOutput(ra, rb, a1 + a2, f)) > 0n);
        const one = computeSwapHop(p, TOK, CC, toDecStr(a1 + a2));
        const h1 = computeSwapHop(p, TOK, CC, toDecStr(a1));
        const p2: PoolState = {
          ...p,
          reserveA: h1.newReserveA.toFixed(10),
          reserveB: h1.newReserveB.toFixed(10),
        };
        let second = 0n;
        try {
          second = toUnits(computeSwapHop(p2, TOK, CC, toDecStr(a2)).amountOut.toFixed(10));
        } catch (e) {
          if (!(isAmmError(e) && e.code === 'AMM_INSUFFICIENT_LIQUIDITY')) throw e;
        }
        const split = toUnits(h1.amountOut.toFixed(10)) + second;
        expect(split <= toUnits(one.amountOut.toFixed(10))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

function toDecStr(u: bigint): Dec {
  return new Dec(fromUnits(u));
}

describe('mid price, fee split, TVL', () => {
  it('mid price is reserve_b / reserve_a rounded half-up to 10 places; null on empty', () => {
    fc.assert(
      fc.property(reserve, reserve, (ra, rb) => {
        const got = computeMidPrice({ reserveA: fromUnits(ra), reserveB: fromUnits(rb) });
        expect(got?.toFixed(10)).toBe(priceString(rb, ra));
      }),
      { numRuns: 200 },
    );
    expect(computeMidPrice({ reserveA: '0', reserveB: '1' })).toBeNull();
  });

  it('fee split: protocol = fee × share rounded down, lp = rest', () => {
    const s = computeFeeSplit('0.05', '0.1');
    expect([s.protocolFee.toFixed(10), s.lpFee.toFixed(10)]).toEqual(['0.0050000000', '0.0450000000']);
    const t = computeFeeSplit('0.0000000003', '0.5');
    expect([t.protocolFee.toFixed(10), t.lpFee.toFixed(10)]).toEqual(['0.0000000001', '0.0000000002']);
    expect(() => computeFeeSplit('1', '1.5')).toThrow(/AMM_INVALID_POOL/);
  });

  it('TVL in CC is twice the CC-side reserve', () => {
    expect(computeTvlCc(pool(toUnits('7'), toUnits('1611266.5495824633'), 0n, 0n), CC).toFixed(10)).toBe(
      '3222533.0991649266',
    );
  });
});

describe('valuation and price helpers', () => {
  it('computeCcValue: CC as is, others at the deepest CC pool mid (half-up), null without a usable pool', () => {
    const deep = {
      ...pool(toUnits('20000'), toUnits('130000'), 3n * (UNIT / 1000n), UNIT / 10n),
      poolId: 'deep',
    };
    const shallow = { ...pool(toUnits('1'), toUnits('1'), 0n, 0n), poolId: 'shallow' };
    expect(computeCcValue('3', TOK, [shallow, deep], CC)?.toFixed(10)).toBe('19.5000000000');
    expect(computeCcValue('0.0000000001', TOK, [deep], CC)?.toFixed(10)).toBe('0.0000000007'); // 6.5e-10 → half-up
    expect(computeCcValue('7', CC, [], CC)?.toFixed(10)).toBe('7.0000000000');
    expect(computeCcValue('7', TOK, [], CC)).toBeNull();
    expect(computeCcValue('7', TOK, [pool(0n, 0n, 0n, 0n)], CC)).toBeNull();
  });

  it('slippage and price-after helpers round half-up to 10 places', () => {
    expect(computeSlippage('0.1523045527', '0.1523140010').toFixed(10)).toBe('0.0000620317');
    expect(computeSlippage('1', '0').toFixed(10)).toBe('0.0000000000');
    expect(computePriceAfter('3', '1')?.toFixed(10)).toBe('0.3333333333');
    expect(computePriceAfter('3', '2')?.toFixed(10)).toBe('0.6666666667');
    expect(computePriceAfter('0', '2')).toBeNull();
  });

  it('corrupt state strings are typed errors, not library exceptions', () => {
    for (const bad of ['1e5', 'abc', '', '0x10', 'NaN']) {
      expect(() =>
        computeSwapOutput({ reserveIn: bad, reserveOut: '1', amountIn: '1', feeRate: '0' }),
      ).toThrow(/AMM_INVALID_POOL/);
    }
    expect(() => computeSwapOutput({ reserveIn: '1', reserveOut: '1', amountIn: '1', feeRate: '1' })).toThrow(
      /AMM_INVALID_POOL/,
    );
  });
});
