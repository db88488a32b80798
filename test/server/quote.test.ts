/**
 * POST /connect/quote and POST /pools/quote over HTTP: the documented errors with exact status and
 * message, the memo rule, direct and cross routes, and the key sets / nesting / number formatting
 * of the live recordings (fixtures/recordings, copied from the shared material → compared structurally, not by value).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CC, createFakeExchange, FOO, MOD, USDCX } from './helpers/fake-exchange.js';
import { expectShape, keyStructure } from './helpers/shape.js';
import { postJson, startTestServer, type TestServer } from './helpers/start.js';
import { quoteSchema } from './schemas.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ exchange: createFakeExchange() });
});
afterAll(async () => {
  await srv.close();
  expect(srv.loggedErrors).toEqual([]);
});

const body = (
  sell: typeof CC,
  buy: typeof CC,
  amount: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  sellAmount: amount,
  sellInstrumentId: sell.id,
  sellInstrumentAdmin: sell.admin,
  buyInstrumentId: buy.id,
  buyInstrumentAdmin: buy.admin,
  ...extra,
});

const recordingsDir = new URL('../../fixtures/recordings/', import.meta.url);
function recording(name: string): { body: unknown; request_body?: unknown } | null {
  try {
    return JSON.parse(readFileSync(new URL(name, recordingsDir), 'utf8'));
  } catch {
    return null;
  }
}
const rec100 = recording('synfin-pools-quote-cc-usdcx-100.json');
const rec500 = recording('synfin-pools-quote-cc-usdcx-500.json');

describe('quote bodies', () => {
  it.skipIf(rec100 === null)(
    '/pools/quote has exactly the key structure of the live recordings',
    async () => {
      for (const [rec, amount] of [
        [rec100, '100'],
        [rec500, '500'],
      ] as const) {
        const r = await postJson(`${srv.base}/pools/quote`, body(CC, USDCX, amount));
        expect(r.status).toBe(200);
        expect(keyStructure(r.body)).toEqual(keyStructure(rec?.body));
        expectShape(r.body, quoteSchema(false));
        // the recordings themselves satisfy the same schema (formats, not values)
        expectShape(rec?.body, quoteSchema(false));
        // key order as recorded (alphabetical)
        expect(Object.keys(r.body as object)).toEqual(Object.keys(rec?.body as object));
      }
    },
  );

  it('the 500 CC pool quote waives the network fee ("0"), the 100 CC one does not', async () => {
    const a = (await postJson(`${srv.base}/pools/quote`, body(CC, USDCX, '100'))).body as {
      fees: { network_fee: { amount: string } };
      pools: { sell: { amount: string } }[];
    };
    const b = (await postJson(`${srv.base}/pools/quote`, body(CC, USDCX, '500'))).body as {
      fees: { network_fee: { amount: string } };
    };
    expect(a.fees.network_fee.amount).toBe('2');
    expect(a.pools[0]?.sell.amount).toBe('100.0000000000');
    expect(b.fees.network_fee.amount).toBe('0');
  });

  it('/connect/quote = pool quote shape + memo; memo carries the affiliate code cut to 20', async () => {
    const r = await postJson(
      `${srv.base}/connect/quote`,
      body(CC, USDCX, '100', { affiliateCode: 'A'.repeat(25) }),
    );
    expect(r.status).toBe(200);
    expectShape(r.body, quoteSchema(true));
    const q = r.body as {
      memo: string;
      sent: { affiliate_code: string | null; sell_amount: string };
      fees: { fee_percentage: string };
    };
    expect(q.memo).toBe(`USDCx ref:${'A'.repeat(20)}`);
    expect(q.sent.affiliate_code).toBe('A'.repeat(25));
    expect(q.sent.sell_amount).toBe('100');
    expect(q.fees.fee_percentage).toBe('0.0025000000');
    const plain = (await postJson(`${srv.base}/connect/quote`, body(CC, USDCX, '100.50'))).body as {
      memo: string;
      sent: { affiliate_code: unknown; sell_amount: string };
    };
    expect(plain.memo).toBe('USDCx');
    expect(plain.sent.affiliate_code).toBeNull();
    expect(plain.sent.sell_amount).toBe('100.50');
  });

  it('a cross swap routes through CC in two hops; a direct swap in one', async () => {
    const cross = (await postJson(`${srv.base}/connect/quote`, body(FOO, USDCX, '100'))).body as {
      pools: { pool_id: string; buy: { instrument_id: string } }[];
      returned: { instrument_id: string };
    };
    expect(cross.pools.map((p) => p.pool_id)).toEqual(['1001', '2820898830768735469']);
    expect(cross.pools[0]?.buy.instrument_id).toBe('Amulet');
    expect(cross.returned.instrument_id).toBe('USDCx');
    const direct = (await postJson(`${srv.base}/connect/quote`, body(USDCX, CC, '100'))).body as {
      pools: unknown[];
    };
    expect(direct.pools).toHaveLength(1);
  });

  it('quote bodies are parsed as JSON whatever the Content-Type', async () => {
    const r = await postJson(`${srv.base}/connect/quote`, JSON.stringify(body(CC, USDCX, '100')), {
      'Content-Type': 'text/plain;charset=UTF-8',
    });
    expect(r.status).toBe(200);
  });

  it('an identical quote against the same ledger state is identical; after a swap it moves', async () => {
    const ex = createFakeExchange();
    const s2 = await startTestServer({ exchange: ex });
    try {
      const a = await postJson(`${s2.base}/connect/quote`, body(CC, USDCX, '123'));
      const b = await postJson(`${s2.base}/connect/quote`, body(CC, USDCX, '123'));
      expect(b.text).toBe(a.text);
      ex.swap('2820898830768735469', 5000);
      const c = await postJson(`${s2.base}/connect/quote`, body(CC, USDCX, '123'));
      expect(c.status).toBe(200);
      expect(c.text).not.toBe(a.text);
      expect((c.body as { pool_price_before_trade: string }).pool_price_before_trade).not.toBe(
        (a.body as { pool_price_before_trade: string }).pool_price_before_trade,
      );
    } finally {
      await s2.close();
    }
  });

  it('quotes are not cached', async () => {
    const r = await postJson(`${srv.base}/connect/quote`, body(CC, USDCX, '100'));
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});

describe('quote errors (status + exact message)', () => {
  const cases: [string, unknown, number, string][] = [
    ['missing sellAmount', { sellInstrumentId: 'Amulet' }, 400, 'missing sellAmount'],
    [
      'missing fields in body order',
      { sellAmount: '100', buyInstrumentId: 'USDCx' },
      400,
      'missing sellInstrumentId',
    ],
    [
      'missing buyInstrumentAdmin',
      { ...body(CC, USDCX, '100'), buyInstrumentAdmin: undefined },
      400,
      'missing buyInstrumentAdmin',
    ],
    ['empty sellAmount (present, so not missing)', body(CC, USDCX, ''), 400, 'invalid sellAmount'],
    [
      'null sellAmount (present, so not missing)',
      body(CC, USDCX, null as unknown as string),
      400,
      'invalid sellAmount',
    ],
    ['negative amount', body(CC, USDCX, '-1'), 400, 'invalid sellAmount'],
    ['zero amount', body(CC, USDCX, '0'), 400, 'invalid sellAmount'],
    ['exponent', body(CC, USDCX, '1e3'), 400, 'invalid sellAmount'],
    ['11 decimals', body(CC, USDCX, '100.00000000001'), 400, 'invalid sellAmount'],
    ['huge', body(CC, USDCX, '9'.repeat(40)), 400, 'invalid sellAmount'],
    ['number instead of string', { ...body(CC, USDCX, '1'), sellAmount: 100 }, 400, 'invalid sellAmount'],
    ['selling MOD', body(MOD, CC, '1000'), 400, 'MOD is not supported for connect swaps'],
    [
      'below the minimum',
      body(CC, USDCX, '49.99'),
      400,
      'minimum ticket size is 50 CC, or equivalent in other instruments',
    ],
    [
      'below the minimum in another token',
      body(USDCX, CC, '7'),
      400,
      'minimum ticket size is 50 CC, or equivalent in other instruments',
    ],
    ['unknown token', body({ ...CC, id: 'Nope' }, USDCX, '100'), 404, 'instrument not found in pool'],
    ['same token', body(CC, CC, '100'), 400, 'sell and buy instrument are the same'],
    ['not an object', '[1,2]', 400, 'invalid JSON body'],
    ['malformed JSON', '{"sellAmount":', 400, 'invalid JSON body'],
    ['empty body', '', 400, 'invalid JSON body'],
  ];
  it.each(cases)('%s', async (_name, b, status, message) => {
    const r = await postJson(`${srv.base}/connect/quote`, b);
    expect([r.status, r.body]).toEqual([status, { error: message }]);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('MOD may be quoted on /pools/quote (the MOD rule is Connect only)', async () => {
    const r = await postJson(`${srv.base}/pools/quote`, body(MOD, CC, '1000'));
    expect(r.status).toBe(200);
  });

  it('a pool without liquidity → 400 insufficient liquidity', async () => {
    const ex = createFakeExchange();
    ex.setPools(
      ex
        .pools()
        .map((p) =>
          p.tokenA.id === FOO.id ? { ...p, reserveA: '0.0000000000', reserveB: '0.0000000000' } : p,
        ),
    );
    const s2 = await startTestServer({ exchange: ex });
    try {
      const r = await postJson(`${s2.base}/connect/quote`, body(CC, FOO, '100'));
      expect([r.status, r.body]).toEqual([400, { error: 'insufficient liquidity' }]);
      const r2 = await postJson(`${s2.base}/connect/quote`, body(FOO, CC, '100'));
      expect([r2.status, r2.body]).toEqual([400, { error: 'insufficient liquidity' }]);
    } finally {
      await s2.close();
      expect(s2.loggedErrors).toEqual([]);
    }
  });

  it('no pools → 404 no pools found', async () => {
    const ex = createFakeExchange();
    ex.setPools(ex.pools().map((p) => ({ ...p, active: false })));
    const s2 = await startTestServer({ exchange: ex });
    try {
      const r = await postJson(`${s2.base}/connect/quote`, body(CC, USDCX, '100'));
      expect([r.status, r.body]).toEqual([404, { error: 'no pools found' }]);
    } finally {
      await s2.close();
    }
  });

  it('a body over 64 KiB → 413', async () => {
    const r = await postJson(`${srv.base}/connect/quote`, {
      ...body(CC, USDCX, '100'),
      pad: 'x'.repeat(70_000),
    });
    expect([r.status, r.body]).toEqual([413, { error: 'request body too large' }]);
  });
});
