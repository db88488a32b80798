/** POST /connect/quote and /pools/quote: error table and order, fee order, routes, memo (api-decisions §4, §4b). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeExecutedSwapMinimum,
  findRoute,
  formatMemo,
  type PoolState,
  type QuoteResult,
  quoteConnectSwap,
  quotePoolSwap,
  type TokenRef,
} from '../../src/core/amm/index.js';
import type { QuoteResponse } from '../../src/core/wire/quote.js';
import { CC, GOLD, LONELY, MOD, makePool, POLICY, seedPools, TFUSDT, TOKENS, USDCX } from './fixtures.js';
import { exactSwapOutput, floorUnits, fromUnits, toUnits, UNIT } from './reference.js';

function req(
  sell: TokenRef,
  buy: TokenRef,
  sellAmount: unknown,
  extra: Record<string, unknown> = {},
): unknown {
  return {
    sellAmount,
    sellInstrumentId: sell.id,
    sellInstrumentAdmin: sell.admin,
    buyInstrumentId: buy.id,
    buyInstrumentAdmin: buy.admin,
    ...extra,
  };
}

function connect(request: unknown, pools: PoolState[] = seedPools()): QuoteResult {
  return quoteConnectSwap({
    request,
    pools,
    tokens: TOKENS,
    cc: CC,
    policy: POLICY,
    avgExecutionSeconds: null,
  });
}

function poolQuote(request: unknown, pools: PoolState[] = seedPools()): QuoteResult {
  return quotePoolSwap({
    request,
    pools,
    tokens: TOKENS,
    cc: CC,
    policy: POLICY,
    avgExecutionSeconds: '12.4',
  });
}

function ok(r: QuoteResult): QuoteResponse {
  if (!r.ok) throw new Error(`expected a quote, got ${r.status} ${r.error}`);
  return r.body;
}

/** exact reference: one hop, amounts in units */
function refOut(rIn: string, rOut: string, amountIn: bigint, fee: string): bigint {
  return floorUnits(exactSwapOutput(toUnits(rIn), toUnits(rOut), amountIn, toUnits(fee)));
}

describe('quote error table (status, exact message, validation order)', () => {
  const good = req(CC, USDCX, '100');
  const without = (field: string, base: unknown = good): unknown => {
    const o = { ...(base as Record<string, unknown>) };
    delete o[field];
    return o;
  };
  const pools = seedPools();
  const inactive = pools.map((p) => ({ ...p, active: false }));
  const emptyPool = makePool('9', LONELY, CC, '0', '0');
  const tinyPool = makePool('8', LONELY, CC, '0.0010000000', '1.0000000000');
  const cases: [string, unknown, PoolState[], 400 | 404, string][] = [
    ['array body', [], pools, 400, 'invalid JSON body'],
    ['null body', null, pools, 400, 'invalid JSON body'],
    ['string body', '{"sellAmount":"1"}', pools, 400, 'invalid JSON body'],
    ['empty object', {}, pools, 400, 'missing sellAmount'],
    ['missing sellInstrumentId', without('sellInstrumentId'), pools, 400, 'missing sellInstrumentId'],
    [
      'missing sellInstrumentAdmin',
      without('sellInstrumentAdmin'),
      pools,
      400,
      'missing sellInstrumentAdmin',
    ],
    ['missing buyInstrumentId', without('buyInstrumentId'), pools, 400, 'missing buyInstrumentId'],
    ['missing buyInstrumentAdmin', without('buyInstrumentAdmin'), pools, 400, 'missing buyInstrumentAdmin'],
    // missing means absent: a present "" or null is a value, and not a valid one
    ['empty sellAmount is invalid, not missing', req(CC, USDCX, ''), pools, 400, 'invalid sellAmount'],
    ['null sellAmount is invalid, not missing', req(CC, USDCX, null), pools, 400, 'invalid sellAmount'],
    [
      'null instrument id is invalid, not missing',
      { ...(good as object), buyInstrumentId: null },
      pools,
      400,
      'invalid buyInstrumentId',
    ],
    [
      'empty instrument id is a string that names no token',
      { ...(good as object), sellInstrumentId: '' },
      pools,
      404,
      'instrument not found in pool',
    ],
    [
      'an absent field still wins over an earlier empty one',
      without('buyInstrumentAdmin', req(CC, USDCX, '')),
      pools,
      400,
      'missing buyInstrumentAdmin',
    ],
    [
      'body order: first missing wins',
      without('buyInstrumentAdmin', without('sellAmount')),
      pools,
      400,
      'missing sellAmount',
    ],
    [
      'missing before invalid',
      without('buyInstrumentId', req(CC, USDCX, '-1')),
      pools,
      400,
      'missing buyInstrumentId',
    ],
    ['negative', req(CC, USDCX, '-1'), pools, 400, 'invalid sellAmount'],
    ['exponent', req(CC, USDCX, '1e3'), pools, 400, 'invalid sellAmount'],
    ['zero', req(CC, USDCX, '0'), pools, 400, 'invalid sellAmount'],
    ['11 decimals', req(CC, USDCX, '100.00000000001'), pools, 400, 'invalid sellAmount'],
    ['29 digits', req(CC, USDCX, '1'.repeat(29)), pools, 400, 'invalid sellAmount'],
    ['JSON number', req(CC, USDCX, 100), pools, 400, 'invalid sellAmount'],
    [
      'non-string id',
      req({ admin: CC.admin, id: 5 as unknown as string }, USDCX, '100'),
      pools,
      400,
      'invalid sellInstrumentId',
    ],
    ['invalid before MOD', req(MOD, CC, 'abc'), pools, 400, 'invalid sellAmount'],
    ['MOD', req(MOD, CC, '100'), pools, 400, 'MOD is not supported for connect swaps'],
    ['MOD before route', req(MOD, LONELY, '100'), pools, 400, 'MOD is not supported for connect swaps'],
    ['same token', req(USDCX, USDCX, '100'), pools, 400, 'sell and buy instrument are the same'],
    ['no pools', good, [], 404, 'no pools found'],
    ['only inactive pools', good, inactive, 404, 'no pools found'],
    ['unknown token', req(LONELY, CC, '100'), pools, 404, 'instrument not found in pool'],
    [
      'unknown admin',
      req({ admin: 'other::1220', id: 'USDCx' }, CC, '100'),
      pools,
      404,
      'instrument not found in pool',
    ],
    ['route before minimum', req(LONELY, CC, '0.0000000001'), pools, 404, 'instrument not found in pool'],
    [
      'below minimum (CC)',
      req(CC, USDCX, '49.9999999999'),
      pools,
      400,
      'minimum ticket size is 50 CC, or equivalent in other instruments',
    ],
    [
      'below minimum (valued)',
      req(GOLD, CC, '0.01'),
      pools,
      400,
      'minimum ticket size is 50 CC, or equivalent in other instruments',
    ],
    ['empty pool', req(LONELY, CC, '100'), [...pools, emptyPool], 400, 'insufficient liquidity'],
    [
      'output below the network fee',
      req(LONELY, CC, '0.1'),
      [...pools, tinyPool],
      400,
      'sell amount does not cover the fees',
    ],
  ];
  it.each(cases)('%s', (_name, request, poolSet, status, error) => {
    expect(connect(request, poolSet)).toEqual({ ok: false, status, error });
  });

  it('exactly at the minimum passes', () => {
    expect(connect(req(CC, USDCX, '50')).ok).toBe(true);
  });

  it('pool quote: MOD allowed, no minimum (§4b revised), no affiliate validation', () => {
    expect(poolQuote(req(MOD, CC, '100')).ok).toBe(true);
    // below min_swap_amount_size_cc (10): the pre-trade quote is indicative, clients quote "1"
    for (const amount of ['9.99', '1', '0.001']) {
      const r = poolQuote(req(CC, USDCX, amount));
      expect(r.ok, amount).toBe(true);
      if (r.ok) expect(r.body.prices.pool_before).toBe(r.body.pool_price_before_trade);
    }
    expect(poolQuote(req(CC, USDCX, '10', { affiliateCode: 5 })).ok).toBe(true);
  });

  it('the Connect minimum is the larger of the Connect and swap minimums', () => {
    expect(computeExecutedSwapMinimum(POLICY)).toBe(POLICY.minConnectSwapAmountSizeCc);
    expect(computeExecutedSwapMinimum({ minConnectSwapAmountSizeCc: '5', minSwapAmountSizeCc: '10' })).toBe(
      '10',
    );
  });

  it('affiliateCode with a NUL or another control character → invalid affiliateCode', () => {
    for (const code of ['a\u0000b', 'x\ny', 'tab\there', 'del\u007f', 'c1\u0085']) {
      expect(connect(req(CC, USDCX, '100', { affiliateCode: code }))).toEqual({
        ok: false,
        status: 400,
        error: 'invalid affiliateCode',
      });
    }
    expect(connect(req(CC, USDCX, '100', { affiliateCode: 'ünïcode-ok ✓' })).ok).toBe(true);
  });

  it('sellAmount with leading zeros → invalid sellAmount', () => {
    for (const amount of ['00100', '007', '00.5', '01']) {
      expect(connect(req(CC, USDCX, amount))).toEqual({
        ok: false,
        status: 400,
        error: 'invalid sellAmount',
      });
    }
    expect(connect(req(CC, USDCX, '100.0')).ok).toBe(true);
  });

  it('invalid affiliateCode type on connect', () => {
    expect(connect(req(CC, USDCX, '100', { affiliateCode: 7 }))).toEqual({
      ok: false,
      status: 400,
      error: 'invalid affiliateCode',
    });
  });
});

describe('routes', () => {
  const pools = seedPools();
  it('direct through the deepest pool of the pair', () => {
    const r = findRoute(pools, CC, USDCX, CC);
    expect(r?.hops.map((h) => h.pool.poolId)).toEqual(['1']);
    expect(findRoute(pools, USDCX, CC, CC)?.hops.map((h) => h.pool.poolId)).toEqual(['1']);
  });
  it('two hops through CC, deepest per leg, inactive pools ignored', () => {
    const extra = [
      ...pools,
      makePool('6', TFUSDT, CC, '1.0000000000', '999999999.0000000000', '0.003', { active: false }),
    ];
    const r = findRoute(extra, TFUSDT, GOLD, CC);
    expect(r?.hops.map((h) => [h.pool.poolId, h.sell.id, h.buy.id])).toEqual([
      ['3', 'TF-USDT', 'Amulet'],
      ['4', 'Amulet', 'GOLD'],
    ]);
  });
  it('ties go to the smaller pool_id; no route to an unpooled token', () => {
    const twin = [makePool('b', CC, USDCX, '10', '1'), makePool('a', CC, USDCX, '10', '2')];
    expect(findRoute(twin, CC, USDCX, CC)?.hops[0]?.pool.poolId).toBe('a');
    expect(findRoute(pools, CC, LONELY, CC)).toBeNull();
    expect(findRoute(pools, CC, CC, CC)).toBeNull();
  });
});

describe('Connect fee order (§4) against the exact reference', () => {
  it('selling CC: Connect fee, then 2 CC from the input, then the pool fee', () => {
    const b = ok(connect(req(CC, USDCX, '100')));
    const S = toUnits('100');
    const afterConnect = S - (S * 2n) / 1000n; // 0.2 % of 100 is exact
    const hopIn = afterConnect - 2n * UNIT;
    const out = refOut('1000000', '150000', hopIn, '0.0005');
    expect(b.pools[0]?.sell.amount).toBe(fromUnits(hopIn));
    expect(b.returned.amount).toBe(fromUnits(out));
    expect(b.fees.network_fee.amount).toBe('2');
    expect(b.fees.fee_percentage).toBe('0.0025000000');
    expect(b.fees.amount_admin).toBe(fromUnits((hopIn * 5n) / 100000n)); // 10 % of 0.05 %, exact here
    expect(b.memo).toBe('USDCx');
    expect(b.sent.affiliate_code).toBeNull();
  });

  it('buying CC: the network fee comes off the final output', () => {
    const b = ok(connect(req(TFUSDT, CC, '10')));
    const hopIn = toUnits('10') - toUnits('0.02');
    const out = refOut('20000', '130000', hopIn, '0.003');
    expect(b.pools[0]?.buy.amount).toBe(fromUnits(out));
    expect(b.returned.amount).toBe(fromUnits(out - 2n * UNIT));
  });

  it('cross swap: the network fee comes off the intermediate CC', () => {
    const b = ok(connect(req(TFUSDT, USDCX, '10')));
    const hopIn = toUnits('10') - toUnits('0.02');
    const cc = refOut('20000', '130000', hopIn, '0.003');
    const out = refOut('1000000', '150000', cc - 2n * UNIT, '0.0005');
    expect(b.pools.map((p) => [p.sell.amount, p.buy.amount])).toEqual([
      [fromUnits(hopIn), fromUnits(cc)],
      [fromUnits(cc - 2n * UNIT), fromUnits(out)],
    ]);
    expect(b.returned.amount).toBe(fromUnits(out));
    expect(b.fees.fee_percentage).toBe('0.0055000000');
    expect(b.fees.instrument_id).toBe('TF-USDT');
    expect(b.pool_size.amount).toBe('260000.0000000000'); // shallowest pool on the route
  });

  it('waived at and above the CC-equivalent threshold', () => {
    expect(ok(connect(req(CC, USDCX, '500'))).fees.network_fee.amount).toBe('0');
    expect(ok(connect(req(CC, USDCX, '499.9999999999'))).fees.network_fee.amount).toBe('2');
    // 100 TF-USDT ≈ 650 CC
    const b = ok(connect(req(TFUSDT, CC, '100')));
    expect(b.fees.network_fee.amount).toBe('0');
    expect(b.returned.amount).toBe(b.pools[0]?.buy.amount);
  });
});

describe('pool quote (§4b)', () => {
  it('no Connect fee, network fee on top, no memo, sell amount enters the pool whole', () => {
    const b = ok(poolQuote(req(CC, USDCX, '100')));
    expect(b.pools[0]?.sell.amount).toBe('100.0000000000');
    expect(b.returned.amount).toBe(fromUnits(refOut('1000000', '150000', toUnits('100'), '0.0005')));
    expect(b.fees.network_fee.amount).toBe('2');
    expect(b.fees.fee_percentage).toBe('0.0005000000');
    expect(b.estimated_time_seconds).toBe('12.40');
    expect('memo' in b).toBe(false);
    expect('affiliate_code' in b.sent).toBe(false);
  });
});

describe('hop slippage = 1 − trade_no_fees / pool_before of the hop (unrounded)', () => {
  // the fee-free output of a hop is in·R_out/(R_in + in), so the exact slippage is in/(R_in + in)
  const exactSlippage = (amountIn: string, reserveIn: string): string => {
    const i = toUnits(amountIn);
    const r = toUnits(reserveIn);
    // HALF-UP to 10 places of i/(r + i), in units of 1e-10
    const q = (2n * i * UNIT) / (r + i);
    return fromUnits((q + 1n) / 2n);
  };
  const reserveOf = (p: PoolState, t: TokenRef): string =>
    p.tokenA.id === t.id && p.tokenA.admin === t.admin ? p.reserveA : p.reserveB;

  it('every hop of /pools/quote and /connect/quote, including CC sells below the Connect minimum', () => {
    const pools = seedPools();
    // 10–49 CC is quotable on /pools/quote only; small sells into a low-priced token are where a
    // rounded-down fee-free output moves the last digit
    const amounts = ['10', '11', '12.5', '17', '23', '31', '49', '49.9999999999', '50', '100', '777', '5000'];
    let hops = 0;
    for (const [sell, buy] of [
      [CC, USDCX],
      [USDCX, CC],
      [CC, GOLD],
      [GOLD, USDCX],
      [TFUSDT, USDCX],
    ] as const)
      for (const amount of amounts)
        for (const r of [poolQuote(req(sell, buy, amount), pools), connect(req(sell, buy, amount), pools)]) {
          if (!r.ok) continue;
          for (const h of r.body.pools) {
            const pool = pools.find((p) => p.poolId === h.pool_id);
            if (pool === undefined) throw new Error(`unknown pool ${h.pool_id}`);
            const sold = { id: h.sell.instrument_id, admin: h.sell.instrument_admin };
            expect(h.prices.slippage, `${sell.id}→${buy.id} ${amount} hop ${h.pool_id}`).toBe(
              exactSlippage(h.sell.amount, reserveOf(pool, sold)),
            );
            hops++;
          }
        }
    expect(hops).toBeGreaterThan(60);
  });

  it('a 12.5 CC pool quote into a low-priced token: the digit the rounded fee-free output got wrong', () => {
    // CC→USDCx on the deep pool: 12.5/1000012.5 = 0.00001249984… → 0.0000124998 (the fee-free
    // output rounded down to 10 places gave 0.0000124999)
    const b = ok(poolQuote(req(CC, USDCX, '12.5')));
    expect(b.pools[0]?.prices.slippage).toBe('0.0000124998');
  });
});

describe('memo', () => {
  it('buy instrument id, plus " ref:<code>" truncated to 20 characters', () => {
    expect(formatMemo('USDCx', null)).toBe('USDCx');
    expect(formatMemo('USDCx', '')).toBe('USDCx');
    expect(formatMemo('USDCx', 'abc')).toBe('USDCx ref:abc');
    expect(formatMemo('USDCx', 'abcdefghijklmnopqrstuvwxyz')).toBe('USDCx ref:abcdefghijklmnopqrst');
    expect(formatMemo('X', '😀'.repeat(25))).toBe(`X ref:${'😀'.repeat(20)}`);
  });
  it('in the body, with the full code echoed in sent', () => {
    const code = 'partner-0123456789-abcdef';
    const b = ok(connect(req(CC, USDCX, '100', { affiliateCode: code })));
    expect(b.memo).toBe('USDCx ref:partner-0123456789-a');
    expect(b.sent.affiliate_code).toBe(code);
  });
});

describe('hostile requests and plan accounting (fast-check)', () => {
  const pools = seedPools();
  const tokens = [CC, USDCX, MOD, TFUSDT, GOLD, LONELY];

  it('never throws: any JSON value or field mix yields a quote or a {status, error}', () => {
    const field = fc.oneof(
      fc.constantFrom(CC.id, CC.admin, USDCX.id, USDCX.admin, 'MOD', '', '100', '1e3', '-5', '0.00000000001'),
      fc.string(),
      fc.anything(),
    );
    const body = fc.oneof(
      fc.anything(),
      fc.record(
        {
          sellAmount: fc.oneof(field, fc.stringMatching(/^\d{1,30}(\.\d{0,12})?$/)),
          sellInstrumentId: field,
          sellInstrumentAdmin: field,
          buyInstrumentId: field,
          buyInstrumentAdmin: field,
          affiliateCode: field,
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(body, (b) => {
        for (const r of [connect(b, pools), poolQuote(b, pools)]) {
          if (!r.ok) {
            expect([400, 404]).toContain(r.status);
            expect(r.error.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every quoted amount is accounted for: S = connect fee + network fee (input) + hop input; k never decreases', () => {
    const amount = fc.bigInt({ min: 1n, max: 10n ** 8n * UNIT }).map(fromUnits);
    fc.assert(
      fc.property(
        fc.constantFrom(...tokens),
        fc.constantFrom(...tokens),
        amount,
        fc.boolean(),
        (sell, buy, s, isConnect) => {
          const r = (isConnect ? connect : poolQuote)(req(sell, buy, s), pools);
          if (!r.ok) return;
          const plan = r.plan;
          const S = toUnits(s);
          const u = (d: { toFixed(n: number): string }): bigint => toUnits(d.toFixed(10));
          const first = plan.hops[0]!;
          const fromInput = plan.networkFeeSource === 'input' ? u(plan.networkFee) : 0n;
          expect(u(plan.connectFee) + fromInput + u(first.amountIn)).toBe(S);
          if (!isConnect) expect(u(plan.connectFee)).toBe(0n);
          const last = plan.hops[plan.hops.length - 1]!;
          const fromOutput = plan.networkFeeSource === 'output' ? u(plan.networkFee) : 0n;
          expect(u(plan.amountOut) + fromOutput).toBe(u(last.amountOut));
          if (plan.hops.length === 2) {
            const mid = plan.networkFeeSource === 'intermediate' ? u(plan.networkFee) : 0n;
            expect(u(plan.hops[1]!.amountIn) + mid).toBe(u(first.amountOut));
          }
          for (const h of plan.hops) {
            const before = toUnits(h.pool.reserveA) * toUnits(h.pool.reserveB);
            expect(u(h.newReserveA) * u(h.newReserveB) >= before).toBe(true);
          }
          expect(r.body.returned.amount).toBe(fromUnits(u(plan.amountOut)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
