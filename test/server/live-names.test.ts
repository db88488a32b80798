/**
 * The live service's names served beside the interface's (api-decisions §10): /coingecko/* is
 * byte-identical to /aggregator/*, every token carries `coingecko_id` = `price_aggregator_id`,
 * `source` of the own markets is the exchange name (default `service`), USDCx's id is its own
 * listing, and the websocket accepts `market.CC-USDC.*` as the CC/USDCx market.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { createFakeExchange } from './helpers/fake-exchange.js';
import { getJson, startTestServer, type TestServer } from './helpers/start.js';

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('live names', () => {
  it('/coingecko/pairs, /tickers, /orderbook answer exactly what /aggregator/* answers', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    for (const path of ['/pairs', '/tickers', '/orderbook?ticker_id=CC_USDCX&depth=4', '/orderbook']) {
      const a = await getJson(`${srv.base}/aggregator${path}`);
      const b = await getJson(`${srv.base}/coingecko${path}`);
      expect(b.status, path).toBe(a.status);
      expect(b.text, path).toBe(a.text);
      expect(b.headers.get('cache-control')).toBe(a.headers.get('cache-control'));
    }
  });

  it('tokens carry both spellings of the aggregator id; markets name the exchange', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const t = (await getJson(`${srv.base}/tokens/info`)).body as {
      tokens: { info: Record<string, unknown> }[];
    };
    for (const x of t.tokens) {
      expect(Object.hasOwn(x.info, 'coingecko_id')).toBe(true);
      expect(x.info.coingecko_id).toBe(x.info.price_aggregator_id);
    }
    const sources = async (s: TestServer): Promise<string[]> =>
      (
        (await getJson(`${s.base}/markets/info`)).body as { data: { markets: { source: string }[] } }
      ).data.markets.map((m) => m.source);
    expect(new Set(await sources(srv))).toEqual(new Set(['service', 'external']));
    await srv.close();
    srv = await startTestServer({ exchange: createFakeExchange(), exchangeName: 'cantex' });
    expect(new Set(await sources(srv))).toEqual(new Set(['cantex', 'external']));
  });

  it('an exchange name must be a plain name, not "external"', () => {
    for (const name of ['external', 'EXTERNAL', '', 'a b', 'x'.repeat(65), 'é']) {
      expect(() => createApp({ exchange: createFakeExchange(), exchangeName: name }), name).toThrow(
        /"exchangeName" expected 1-64 letters/,
      );
    }
  });

  it('the seed market lists USDCx under its own listing', () => {
    const usdcx = loadSeedMarket().tokens.find((t) => t.id === 'USDCx');
    expect(usdcx?.priceAggregatorId).toBe('xreserve-bridged-usdc-canton');
  });
});
