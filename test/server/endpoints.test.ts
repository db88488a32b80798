/**
 * Every public endpoint against its schema (exact keys, JSON types, number formats), HTTP
 * behaviour (content type, CORS, cache headers, byte-identical cached bodies, 404/405/OPTIONS),
 * over an in-process server on 127.0.0.1:0 with an in-memory exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CC, createFakeExchange, type FakeExchange, USDCX } from './helpers/fake-exchange.js';
import { expectShape, type Schema } from './helpers/shape.js';
import { getJson, startTestServer, type TestServer } from './helpers/start.js';
import * as S from './schemas.js';

let ex: FakeExchange;
let srv: TestServer;

beforeAll(async () => {
  ex = createFakeExchange();
  ex.advance(-3 * 3_600_000);
  ex.swap('2820898830768735469', 1000);
  ex.advance(3 * 3_600_000 - 60_000);
  ex.swap('1001', 50, true);
  ex.advance(60_000);
  srv = await startTestServer({ exchange: ex });
});
afterAll(async () => {
  await srv.close();
  expect(srv.loggedErrors).toEqual([]);
});

const cases: [string, Schema, number][] = [
  ['/tokens/info', S.TOKENS_INFO, 60],
  ['/swap/info', S.SWAP_INFO, 300],
  ['/markets/info', S.MARKETS_INFO, 60],
  ['/exchange/info', S.EXCHANGE_INFO, 60],
  ['/pools/info', S.POOLS_INFO, 5],
  ['/pools/state', S.POOLS_STATE, 5],
  ['/pools/proof', S.POOLS_PROOF, 5],
  ['/stats', S.STATS, 5],
  ['/volume', S.VOLUME, 30],
  ['/aggregator/pairs', S.PAIRS, 60],
  ['/aggregator/tickers', S.TICKERS, 10],
  ['/aggregator/orderbook?ticker_id=CC_USDCX', S.ORDERBOOK, 10],
];

describe('GET endpoints', () => {
  it.each(cases)(
    '%s matches its schema, JSON headers, CORS and cache duration',
    async (path, schema, maxAge) => {
      const r = await getJson(srv.base + path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toBe(`public, max-age=${maxAge}`);
      // a standard Age (whole seconds since the cached reply was computed) within max-age
      expect(r.headers.get('age')).toMatch(/^[0-9]+$/);
      expect(Number(r.headers.get('age'))).toBeLessThan(Number(maxAge));
      expectShape(r.body, schema);
    },
  );

  it('responses within one cache window are byte-identical, and refresh after it', async () => {
    const a = await getJson(`${srv.base}/pools/state`);
    ex.swap('2820898830768735469', 10);
    const b = await getJson(`${srv.base}/pools/state`);
    expect(b.text).toBe(a.text);
    expect(Number(b.headers.get('age'))).toBeGreaterThanOrEqual(Number(a.headers.get('age')));
    ex.advance(5_000);
    const c = await getJson(`${srv.base}/pools/state`);
    expect(c.text).not.toBe(a.text);
  });

  it('/tokens/info lists every token, including non-tradable ones; /swap/info only pooled ones', async () => {
    const t = (await getJson(`${srv.base}/tokens/info`)).body as {
      tokens: { info: { instrument_id: string } }[];
    };
    expect(t.tokens.map((x) => x.info.instrument_id)).toEqual(ex.tokens().map((x) => x.id));
    const s = (await getJson(`${srv.base}/swap/info`)).body as {
      data: { tokens: { instrument_id: string }[] };
    };
    expect(s.data.tokens.map((x) => x.instrument_id)).not.toContain('IDLE');
    expect(s.data.tokens.map((x) => x.instrument_id)).toContain('USDCx');
  });

  it('/markets/info publishes channels in the documented formats and the candle periods', async () => {
    const m = (await getJson(`${srv.base}/markets/info`)).body as {
      data: {
        candle_periods: number[];
        websocket: { endpoint: string };
        markets: { symbol: string; source: string; channels: { ticker: string; candles: string[] } }[];
      };
    };
    expect(m.data.candle_periods).toEqual([60, 300, 600, 3600]);
    expect(m.data.websocket.endpoint).toBe('/v1/ws/public');
    const cc = m.data.markets.find((x) => x.symbol === 'CC-USDCX');
    expect(cc?.source).toBe('service');
    expect(cc?.channels.ticker).toBe('market.CC-USDCX.ticker');
    expect(cc?.channels.candles).toEqual([60, 300, 600, 3600].map((p) => `market.CC-USDCX.candles.${p}`));
    expect(m.data.markets.find((x) => x.symbol === 'CC-USD')?.source).toBe('external');
    // a symbol with '-' in the base token
    expect(m.data.markets.map((x) => x.symbol)).toContain('TF-FOO-CC');
  });

  it('/pools/state: price = reserve_b / reserve_a, tvl_cc = 2 × CC reserve, symbol base-quote', async () => {
    const st = (await getJson(`${srv.base}/pools/state`)).body as {
      data: {
        pools: {
          pool_id: string;
          symbol: string;
          reserve_a: string;
          reserve_b: string;
          price: string;
          tvl_cc: string;
          token_a_instrument: { id: string };
        }[];
      };
    };
    for (const p of st.data.pools) {
      expect(Math.abs(Number(p.price) - Number(p.reserve_b) / Number(p.reserve_a))).toBeLessThan(1e-9);
      const ccReserve = p.token_a_instrument.id === CC.id ? p.reserve_a : p.reserve_b;
      expect(Number(p.tvl_cc)).toBeCloseTo(2 * Number(ccReserve), 6);
    }
    expect(st.data.pools.find((p) => p.token_a_instrument.id === CC.id)?.symbol).toBe('CC-USDCX');
    const live = ex.pools().find((p) => p.tokenB.id === USDCX.id);
    expect(st.data.pools.find((p) => p.symbol === 'CC-USDCX')?.reserve_a).toBe(
      Number(live?.reserveA).toFixed(10),
    );
  });

  it('/pools/proof carries the latest reserve contract of each active pool', async () => {
    ex.advance(5_000);
    const pr = (await getJson(`${srv.base}/pools/proof`)).body as {
      data: {
        pools: {
          pool_id: string;
          pool_cid: string;
          reserve_contract: Record<string, unknown> & { template: Record<string, string> };
        }[];
      };
    };
    expect(pr.data.pools.map((p) => p.pool_id)).toEqual(
      ex
        .pools()
        .filter((p) => p.active)
        .map((p) => p.poolId),
    );
    const first = pr.data.pools[0];
    const live = ex.pools()[0];
    expect(first?.reserve_contract.contract_id).toBe(live?.reserveContract.contractId);
    expect(first?.pool_cid).toBe(live?.reserveContract.contractId);
    expect(first?.reserve_contract.template).toEqual({
      package_id: live?.reserveContract.packageId,
      package_name: 'amm-pools',
      module_name: 'Amm.Pool',
      entity_name: 'PoolReserve',
    });
    expect(first?.reserve_contract.created_event_blob).toBe(live?.reserveContract.createdEventBlob);
  });

  it('inactive pools are absent from /pools/* and the aggregator', async () => {
    const before = ex.pools();
    ex.setPools(before.map((p) => (p.poolId === '1000' ? { ...p, active: false } : p)));
    ex.advance(60_000);
    for (const path of ['/pools/info', '/pools/state', '/pools/proof', '/aggregator/pairs']) {
      expect((await getJson(srv.base + path)).text).not.toContain('"pool_id":"1000"');
    }
    ex.setPools([...before]);
    ex.advance(60_000);
  });

  it('/stats counts the swaps and /exchange/info renders the policy', async () => {
    ex.advance(60_000);
    const st = (await getJson(`${srv.base}/stats`)).body as {
      stats: { swaps: { count_24h: number; count_1h: number } };
    };
    expect(st.stats.swaps.count_24h).toBe(ex.swapEvents(ex.nowMs() - 86_400_000, ex.nowMs()).length);
    expect(st.stats.swaps.count_1h).toBe(ex.swapEvents(ex.nowMs() - 3_600_000, ex.nowMs()).length);
    const info = (await getJson(`${srv.base}/exchange/info`)).body as {
      data: { policy: Record<string, unknown> };
    };
    expect(info.data.policy.min_connect_swap_amount_size_cc).toBe('50.0000000000');
    expect(info.data.policy.free_transfers_per_day).toBe(3);
  });
});

describe('HTTP behaviour', () => {
  it('unknown path → 404 not found; wrong method → 405 method not allowed with Allow', async () => {
    const a = await getJson(`${srv.base}/nope`);
    expect([a.status, a.body]).toEqual([404, { error: 'not found' }]);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const b = await getJson(`${srv.base}/pools/state/`);
    expect(b.status).toBe(404);
    const c = await getJson(`${srv.base}/pools/state`, { method: 'POST', body: '{}' });
    expect([c.status, c.body]).toEqual([405, { error: 'method not allowed' }]);
    expect(c.headers.get('allow')).toBe('GET, OPTIONS');
    const d = await getJson(`${srv.base}/connect/quote`);
    expect([d.status, d.body]).toEqual([405, { error: 'method not allowed' }]);
    const e = await getJson(`${srv.base}/pools/state`, { method: 'DELETE' });
    expect(e.status).toBe(405);
  });

  it('answers CORS preflight for GET and POST', async () => {
    for (const path of ['/connect/quote', '/pools/state']) {
      const r = await fetch(srv.base + path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-allow-headers')).toBe('Content-Type');
      expect(r.headers.get('access-control-allow-methods')).toMatch(/OPTIONS/);
    }
  });

  it('the simulation interface is off by default', async () => {
    const r = await getJson(`${srv.origin}/v1/sim/transfer`, { method: 'POST', body: '{}' });
    expect([r.status, r.body]).toEqual([404, { error: 'not found' }]);
  });

  it('query strings are ignored by parameterless endpoints and do not split their cache', async () => {
    const a = await getJson(`${srv.base}/pools/info`);
    const b = await getJson(`${srv.base}/pools/info?x=1&y=%ZZ`);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
  });
});
