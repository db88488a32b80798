/**
 * Hostile input never reaches the top-level guard: malformed JSON, wrong types, odd amounts,
 * unknown tokens, oversized bodies (with and without Content-Length), bad timestamps, bad query
 * strings, odd methods and paths → each a 4xx JSON error, never a 5xx; plus a fast-check sweep of
 * random JSON bodies. Also: the guard itself (an exchange that throws → logged 500) and the
 * optional rate limit (429 + Retry-After).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CC, createFakeExchange, USDCX } from './helpers/fake-exchange.js';
import { getJson, postJson, startTestServer, type TestServer } from './helpers/start.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ exchange: createFakeExchange() });
});
afterAll(async () => {
  await srv.close();
  // the point of this file: nothing above reached the 500 guard
  expect(srv.loggedErrors).toEqual([]);
});

const good = {
  sellAmount: '100',
  sellInstrumentId: CC.id,
  sellInstrumentAdmin: CC.admin,
  buyInstrumentId: USDCX.id,
  buyInstrumentAdmin: USDCX.admin,
};

function expect4xx(r: { status: number; body: unknown; headers: Headers }): void {
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(typeof (r.body as { error?: unknown }).error).toBe('string');
}

describe('bad input sweep', () => {
  const bodies: unknown[] = [
    '{',
    'null',
    '"string"',
    '42',
    'true',
    '[]',
    '\u0000',
    '\xff\xfe',
    '{"__proto__":{"sellAmount":"100"}}',
    '{"constructor":{}}',
    { ...good, sellAmount: null },
    { ...good, sellAmount: {} },
    { ...good, sellAmount: [] },
    { ...good, sellAmount: true },
    JSON.stringify(good).replace('"100"', '1e400'),
    { ...good, sellAmount: ' 100' },
    { ...good, sellAmount: '100 ' },
    { ...good, sellAmount: '+100' },
    { ...good, sellAmount: '0x10' },
    { ...good, sellAmount: 'Infinity' },
    { ...good, sellAmount: 'NaN' },
    { ...good, sellAmount: '1,5' },
    { ...good, sellAmount: '.5' },
    { ...good, sellAmount: '5.' },
    { ...good, sellAmount: '0.0000000000' },
    { ...good, sellAmount: '1E2' },
    { ...good, sellAmount: '٣' },
    { ...good, sellAmount: '1'.repeat(29) },
    { ...good, sellAmount: '0.0000000001' },
    { ...good, sellInstrumentId: 5 },
    { ...good, sellInstrumentAdmin: ['x'] },
    { ...good, buyInstrumentId: 'x'.repeat(10_000) },
    { ...good, buyInstrumentAdmin: 'nobody' },
    { ...good, affiliateCode: 7 },
    { ...good, affiliateCode: {} },
    { ...good, sellInstrumentId: 'MOD', sellInstrumentAdmin: 'mod-issuer::1220aa' },
    { ...good, pad: 'x'.repeat(65_536) },
  ];
  it.each(bodies.map((b, i) => [i, b] as const))('quote body #%i → 4xx', async (_i, b) => {
    expect4xx(await postJson(`${srv.base}/connect/quote`, b));
    // /pools/quote has no affiliateCode and no MOD rule: those bodies are valid there
    const r = await postJson(`${srv.base}/pools/quote`, b);
    if (r.status !== 200) expect4xx(r);
  });

  it('an extreme but valid amount (26 digits) is answered, not crashed on', async () => {
    const r = await postJson(`${srv.base}/connect/quote`, {
      ...good,
      sellAmount: '99999999999999999999999999.9999999999',
    });
    expect(r.status === 200 || r.status === 400).toBe(true);
  });

  it('an oversized streamed body without Content-Length → 413', async () => {
    const url = new URL(`${srv.base}/connect/quote`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8192));
      req.end();
    });
    expect(status).toBe(413);
  });

  it('a client that disconnects mid-body does not hang or crash the server', async () => {
    const url = new URL(srv.base);
    const sock = connect(Number(url.port), url.hostname);
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(
      `POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"sellAmount"`,
    );
    await new Promise((r) => setTimeout(r, 50));
    sock.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect((await postJson(`${srv.base}/connect/quote`, good)).status).toBe(200);
  });

  const queries = [
    '/volume?start_time=%',
    '/volume?start_time=%E0%A4%A',
    '/volume?start_time=2026-13-01T00:00:00Z',
    '/volume?start_time=2026-11-21T00:00:60Z',
    '/volume?start_time=9999999-11-21T00:00:00Z',
    '/volume?start_time=+275760-09-13T00:00:00Z',
    '/volume?start_time=0000-01-01T00:00:00Z&end_time=0000-01-02T00:00:00Z',
    '/volume?end_time=2026-11-21T00:00:00.1234567891Z',
    `/volume?start_time=${'9'.repeat(5000)}`,
    '/volume?start_time[]=x',
    '/aggregator/orderbook?ticker_id=%00',
    `/aggregator/orderbook?ticker_id=${'A_'.repeat(3000)}`,
    '/aggregator/orderbook?ticker_id=CC_USDCX&depth=-2',
    '/aggregator/orderbook?ticker_id=CC_USDCX&depth=1e2',
    '/aggregator/orderbook?ticker_id=CC_USDCX&depth=100.0',
    '/v1/public/../v1/public/stats',
    '/%',
  ];
  it.each(queries)('GET %s → 4xx or 200, never 5xx', async (q) => {
    const r = await getJson(q.startsWith('/v1') || q === '/%' ? srv.origin + q : srv.base + q);
    if (r.status !== 200) expect4xx(r);
  });

  it('odd methods are 405 and odd paths 404, as JSON', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect4xx(await getJson(`${srv.base}/stats`, { method }));
    expect4xx(await getJson(`${srv.origin}/`));
    expect4xx(await getJson(`${srv.origin}/v1/public`));
    expect4xx(await getJson(`${srv.origin}/V1/PUBLIC/STATS`));
  });

  it('random JSON bodies never produce a 5xx (fast-check)', async () => {
    const field = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string()),
      fc.stringMatching(/^-?[0-9]{0,30}(\.[0-9]{0,12})?(e[0-9]{1,3})?$/),
    );
    const body = fc.record(
      {
        sellAmount: field,
        sellInstrumentId: fc.oneof(field, fc.constantFrom(CC.id, USDCX.id, 'MOD', 'FOO')),
        sellInstrumentAdmin: fc.oneof(field, fc.constantFrom(CC.admin, USDCX.admin)),
        buyInstrumentId: fc.oneof(field, fc.constantFrom(CC.id, USDCX.id, 'FOO')),
        buyInstrumentAdmin: fc.oneof(field, fc.constantFrom(CC.admin, USDCX.admin, 'foo-issuer::1220bb')),
        affiliateCode: field,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await postJson(`${srv.base}/connect/quote`, b);
        expect(r.status).toBeLessThan(500);
        if (r.status !== 200) expect4xx(r);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the guard and the rate limit', () => {
  it('an unexpected exception becomes a logged 500 {"error":"internal error"}', async () => {
    const ex = createFakeExchange();
    const broken = {
      ...ex,
      tokens: () => {
        throw new Error('boom');
      },
    };
    const s = await startTestServer({ exchange: broken });
    try {
      const r = await getJson(`${s.base}/tokens/info`);
      expect([r.status, r.body]).toEqual([500, { error: 'internal error' }]);
      expect(s.loggedErrors).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('over the limit → 429 rate limit exceeded with Retry-After', async () => {
    const s = await startTestServer({
      exchange: createFakeExchange(),
      rateLimit: { perSecond: 2, burst: 3 },
    });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof getJson>> | undefined;
      for (let i = 0; i < 5; i++) {
        last = await getJson(`${s.base}/pools/state`);
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses[4]).toBe(429);
      expect(last?.body).toEqual({ error: 'rate limit exceeded' });
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 600));
      expect((await getJson(`${s.base}/pools/state`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
