/**
 * Aggregator endpoints (api-decisions §6): consistency with /pools/state (pairs, deepest pool,
 * last price, bid/ask by fee rate, liquidity), 24 h volumes, orderbook levels recomputed here from
 * the formulas with plain floating point, and the documented errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeExchange, type FakeExchange } from './helpers/fake-exchange.js';
import { getJson, startTestServer, type TestServer } from './helpers/start.js';

let ex: FakeExchange;
let srv: TestServer;
beforeAll(async () => {
  ex = createFakeExchange();
  ex.advance(-25 * 3_600_000);
  ex.swap('1001', 10); // older than 24 h: not in the volumes
  ex.advance(2 * 3_600_000);
  ex.swap('1001', 20);
  ex.swap('1002', 5); // the shallower pool of the same pair: volumes aggregate
  ex.advance(23 * 3_600_000);
  srv = await startTestServer({ exchange: ex });
});
afterAll(async () => {
  await srv.close();
  expect(srv.loggedErrors).toEqual([]);
});

type StatePool = {
  pool_id: string;
  symbol: string;
  reserve_a: string;
  reserve_b: string;
  fee_rate: string;
  tvl_cc: string;
};
type Ticker = {
  ticker_id: string;
  pool_id: string;
  last_price: number;
  bid: number;
  ask: number;
  base_volume: number;
  target_volume: number;
  liquidity_in_usd: number;
  high: number | null;
  low: number | null;
};

describe('aggregator', () => {
  it('tickers?include_proof=true: the same cached reply, each ticker naming the contract /pools/proof serves', async () => {
    const plain = await getJson(`${srv.base}/aggregator/tickers`);
    const proved = await getJson(`${srv.base}/aggregator/tickers?include_proof=true`);
    const proof = (await getJson(`${srv.base}/pools/proof`)).body as {
      data: {
        pools: { pool_id: string; reserve_contract: { contract_id: string; created_event_blob: string } }[];
      };
    };
    const rc = new Map(proof.data.pools.map((p) => [p.pool_id, p.reserve_contract]));
    const tickers = proved.body as (Ticker & { contract_id: string; created_event_blob: string })[];
    expect(tickers.length).toBeGreaterThan(0);
    for (const t of tickers) {
      expect(t.contract_id).toBe(rc.get(t.pool_id)?.contract_id);
      expect(t.created_event_blob).toBe(rc.get(t.pool_id)?.created_event_blob);
    }
    expect(tickers.map(({ contract_id: _c, created_event_blob: _b, ...t }) => t)).toEqual(plain.body);
    expect(proved.headers.get('cache-control')).toBe(plain.headers.get('cache-control'));
  });

  it('pairs and tickers agree with /pools/state (deepest pool, price, bid/ask, liquidity)', async () => {
    const state = ((await getJson(`${srv.base}/pools/state`)).body as { data: { pools: StatePool[] } }).data
      .pools;
    const pairs = (await getJson(`${srv.base}/aggregator/pairs`)).body as {
      ticker_id: string;
      base: string;
      target: string;
      pool_id: string;
    }[];
    const tickers = (await getJson(`${srv.base}/aggregator/tickers`)).body as Ticker[];
    const symbols = [...new Set(state.map((p) => p.symbol))].sort();
    expect(pairs.map((p) => p.ticker_id.replace(/_(?=[^_]*$)/, '-')).sort()).toEqual(symbols);
    for (const pair of pairs) {
      const pools = state.filter((p) => p.symbol === `${pair.base}-${pair.target}`);
      const deepest = pools.reduce((a, b) => (Number(a.tvl_cc) >= Number(b.tvl_cc) ? a : b));
      expect(pair.pool_id).toBe(deepest.pool_id);
      const t = tickers.find((x) => x.ticker_id === pair.ticker_id) as Ticker;
      const mid = Number(deepest.reserve_b) / Number(deepest.reserve_a);
      expect(t.last_price).toBeCloseTo(mid, 12);
      expect(t.bid).toBeCloseTo(mid * (1 - Number(deepest.fee_rate)), 12);
      expect(t.ask).toBeCloseTo(mid * (1 + Number(deepest.fee_rate)), 12);
      const tvl = pools.reduce((s, p) => s + Number(p.tvl_cc), 0);
      expect(t.liquidity_in_usd).toBeCloseTo(tvl * Number(ex.ccUsdPrice()), 4);
    }
    expect(pairs.find((p) => p.ticker_id === 'TF-FOO_CC')).toEqual({
      ticker_id: 'TF-FOO_CC',
      base: 'TF-FOO',
      target: 'CC',
      pool_id: '1001',
    });
  });

  it('volumes are the trailing 24 h over every pool of the pair', async () => {
    const tickers = (await getJson(`${srv.base}/aggregator/tickers`)).body as Ticker[];
    const t = tickers.find((x) => x.ticker_id === 'TF-FOO_CC') as Ticker;
    const events = ex.swapEvents(ex.nowMs() - 86_400_000, ex.nowMs());
    expect(events).toHaveLength(2);
    expect(t.base_volume).toBeCloseTo(
      events.reduce((s, e) => s + Number(e.baseAmount), 0),
      8,
    );
    expect(t.target_volume).toBeCloseTo(
      events.reduce((s, e) => s + Number(e.quoteAmount), 0),
      8,
    );
    expect(t.high).not.toBeNull();
    const idle = tickers.find((x) => x.ticker_id === 'MOD_CC') as Ticker;
    expect([idle.base_volume, idle.high, idle.low]).toEqual([0, null, null]);
  });

  it('orderbook levels follow the constant-product formulas within ±2 %', async () => {
    const state = ((await getJson(`${srv.base}/pools/state`)).body as { data: { pools: StatePool[] } }).data
      .pools;
    const pool = state.find((p) => p.pool_id === '2820898830768735469') as StatePool;
    const r = await getJson(`${srv.base}/aggregator/orderbook?ticker_id=cc_usdcx&depth=10`);
    expect(r.status).toBe(200);
    const ob = r.body as {
      ticker_id: string;
      timestamp: number;
      bids: [number, number][];
      asks: [number, number][];
    };
    expect(ob.ticker_id).toBe('CC_USDCX');
    expect(ob.timestamp).toBe(ex.nowMs());
    const m = Number(pool.reserve_b) / Number(pool.reserve_a);
    const X = Number(pool.reserve_a);
    const n = 5;
    expect(ob.asks).toHaveLength(n);
    expect(ob.bids).toHaveLength(n);
    for (let i = 1; i <= n; i++) {
      const ask = ob.asks[i - 1] as [number, number];
      const bid = ob.bids[i - 1] as [number, number];
      expect(ask[0]).toBeCloseTo(m * (1 + (0.02 * i) / n), 12);
      expect(
        ask[1] / (X * (1 / Math.sqrt(1 + (0.02 * (i - 1)) / n) - 1 / Math.sqrt(1 + (0.02 * i) / n))),
      ).toBeCloseTo(1, 9);
      expect(bid[0]).toBeCloseTo(m * (1 - (0.02 * i) / n), 12);
      expect(
        bid[1] / (X * (1 / Math.sqrt(1 - (0.02 * i) / n) - 1 / Math.sqrt(1 - (0.02 * (i - 1)) / n))),
      ).toBeCloseTo(1, 9);
    }
    // default depth 100 → 50 levels per side; the last level sits at ±2 %
    const full = (await getJson(`${srv.base}/aggregator/orderbook?ticker_id=TF-FOO_CC`)).body as {
      asks: [number, number][];
      bids: [number, number][];
    };
    expect(full.asks).toHaveLength(50);
    const foo = state.find((p) => p.pool_id === '1001') as StatePool;
    expect(full.asks.at(-1)?.[0]).toBeCloseTo((Number(foo.reserve_b) / Number(foo.reserve_a)) * 1.02, 12);
  });

  const errors: [string, number, string][] = [
    ['', 400, 'missing ticker_id'],
    ['?ticker_id=', 400, 'missing ticker_id'],
    ['?depth=10', 400, 'missing ticker_id'],
    ['?ticker_id=NOPE_CC', 404, 'unknown ticker_id'],
    ['?ticker_id=CC-USDCX', 404, 'unknown ticker_id'],
    ['?ticker_id=CC_USDCX&depth=3', 400, '"depth" expected an even integer from 2 to 200, got "3"'],
    ['?ticker_id=CC_USDCX&depth=0', 400, '"depth" expected an even integer from 2 to 200, got "0"'],
    ['?ticker_id=CC_USDCX&depth=202', 400, '"depth" expected an even integer from 2 to 200, got "202"'],
    ['?ticker_id=CC_USDCX&depth=abc', 400, '"depth" expected an even integer from 2 to 200, got "abc"'],
    ['?ticker_id=CC_USDCX&depth=', 400, '"depth" expected an even integer from 2 to 200, got ""'],
    ['?ticker_id=CC_USDCX&ticker_id=MOD_CC', 400, 'ticker_id given more than once'],
  ];
  it.each(errors)('orderbook%s → %i %s', async (q, status, error) => {
    const r = await getJson(`${srv.base}/aggregator/orderbook${q}`);
    expect([r.status, r.body]).toEqual([status, { error }]);
  });
});
