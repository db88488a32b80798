/**
 * The client's strict parsers (src/core/wire, with unknown keys rejected) accept every response of
 * the reference server built on the real simulated ledger with some history — the server and
 * the auditor agree on the wire format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/core/wire/index.js';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { prefillHistory } from '../../src/sim/traffic.js';
import { getJson, postJson, startTestServer, type TestServer } from './helpers/start.js';

let srv: TestServer;
let ex: SimulatedExchange;
let close: () => void;
beforeAll(async () => {
  const db = openServerDb(':memory:');
  close = () => db.close();
  ex = createExchange({
    db,
    clock: createManualClock(Date.UTC(2026, 10, 22, 3)),
    rng: createSeededRng('parsers'),
    seedMarket: loadSeedMarket(),
  });
  prefillHistory(ex, { duration: 2 * 3_600_000, swapsPerMinute: 0.5 });
  srv = await startTestServer({ exchange: ex });
});
afterAll(async () => {
  await srv.close();
  close();
  expect(srv.loggedErrors).toEqual([]);
});

const strict = { unknownKeys: 'reject' } as const;

describe('src/core/wire parsers accept the server', () => {
  const cases: [string, (j: unknown) => unknown][] = [
    ['/tokens/info', (j) => api.parseTokensInfoResponse(j, strict)],
    ['/swap/info', (j) => api.parseSwapInfoResponse(j, strict)],
    ['/markets/info', (j) => api.parseMarketsInfoResponse(j, strict)],
    ['/exchange/info', (j) => api.parseExchangeInfoResponse(j, strict)],
    ['/pools/info', (j) => api.parsePoolsInfoResponse(j, strict)],
    ['/pools/state', (j) => api.parsePoolsStateResponse(j, strict)],
    ['/pools/proof', (j) => api.parsePoolsProofResponse(j, strict)],
    ['/stats', (j) => api.parseStatsResponse(j, strict)],
    ['/volume', (j) => api.parseVolumeResponse(j, strict)],
    ['/aggregator/pairs', (j) => api.parseAggregatorPairsResponse(j, strict)],
    ['/aggregator/tickers', (j) => api.parseAggregatorTickersResponse(j, strict)],
    ['/aggregator/orderbook?ticker_id=CC_USDCX', (j) => api.parseAggregatorOrderbookResponse(j, strict)],
  ];
  it.each(cases)('%s', async (path, parse) => {
    const r = await getJson(srv.base + path);
    expect(r.status).toBe(200);
    expect(() => parse(r.body)).not.toThrow();
  });

  it('quotes and errors', async () => {
    const cc = ex.cc();
    const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
    if (usdcx === undefined) throw new Error('no USDCx in the seed market');
    const body = {
      sellAmount: '600',
      sellInstrumentId: cc.id,
      sellInstrumentAdmin: cc.admin,
      buyInstrumentId: usdcx.id,
      buyInstrumentAdmin: usdcx.admin,
    };
    const c = await postJson(`${srv.base}/connect/quote`, { ...body, affiliateCode: 'ref' });
    expect(() => api.parseConnectQuoteResponse(c.body, strict)).not.toThrow();
    const p = await postJson(`${srv.base}/pools/quote`, body);
    expect(() => api.parsePoolsQuoteResponse(p.body, strict)).not.toThrow();
    const e = await postJson(`${srv.base}/connect/quote`, { ...body, sellAmount: '-1' });
    expect(api.parseErrorResponse(e.body, strict)).toEqual({ error: 'invalid sellAmount' });
  });
});
