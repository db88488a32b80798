/**
 * One wire contract for the server and the auditor (src/core/wire): the reference server, built on
 * the real simulated ledger, is served in-process in the corner cases of a market — a fresh
 * exchange with no history, a pool with no reserves, a pool with no trades, a market with no
 * volume — and EVERY public endpoint's response (GET, both quotes, the error bodies) is parsed with
 * the auditor's strict parsers, unknown keys rejected. The server cannot emit what the auditor
 * cannot parse: an honest exchange with an empty pool can be audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolState } from '../../src/core/amm/types.js';
import * as wire from '../../src/core/wire/index.js';
import type { SimulatedExchange } from '../../src/sim/ledger.js';
import { getJson, postJson, startTestServer, type TestServer } from '../server/helpers/start.js';
import { openTestLedger, TRADER } from '../sim/helpers.js';

const strict = { unknownKeys: 'reject' } as const;

/** The CTX-CC market has one pool; CBTC-CC two (the shallower one is emptied below). */
const CTX_POOL = '8926104437518832975';
const CBTC_SHALLOW_POOL = '6618840259037714410';

interface Parsed {
  readonly tokens: wire.TokensInfoResponse;
  readonly swapInfo: wire.SwapInfoResponse;
  readonly markets: wire.MarketsInfoResponse;
  readonly exchangeInfo: wire.ExchangeInfoResponse;
  readonly poolsInfo: wire.PoolsInfoResponse;
  readonly state: wire.PoolsStateResponse;
  readonly proof: wire.PoolsProofResponse;
  readonly stats: wire.StatsResponse;
  readonly volume: wire.VolumeResponse;
  readonly volumeWindow: wire.VolumeResponse;
  readonly pairs: wire.AggregatorPairsResponse;
  readonly tickers: wire.AggregatorTickersResponse;
  readonly orderbooks: ReadonlyMap<string, wire.AggregatorOrderbookResponse>;
  /** by the bought token's symbol: the /connect/quote and /pools/quote answers selling 100 CC */
  readonly quotes: ReadonlyMap<string, { connect: unknown; pool: unknown }>;
}

async function get<T>(srv: TestServer, path: string, parse: (json: unknown) => T): Promise<T> {
  const r = await getJson(srv.base + path);
  expect(r.status, path).toBe(200);
  return parse(r.body);
}

/** An error body, parsed with the auditor's error parser. */
async function getError(srv: TestServer, path: string, status: number): Promise<string> {
  const r = await getJson(srv.origin + path);
  expect(r.status, path).toBe(status);
  return wire.parseErrorResponse(r.body, strict).error;
}

/** A quote answer: 200 → the quote parser, else the error parser. */
function parseQuote(mode: 'connect' | 'pool', r: { status: number; body: unknown }): unknown {
  if (r.status !== 200) return wire.parseErrorResponse(r.body, strict);
  return mode === 'connect'
    ? wire.parseConnectQuoteResponse(r.body, strict)
    : wire.parsePoolsQuoteResponse(r.body, strict);
}

/** Fetches every public endpoint and parses it with the auditor's parsers (strict). */
async function parseEveryEndpoint(srv: TestServer, ex: SimulatedExchange): Promise<Parsed> {
  const tokens = await get(srv, '/tokens/info', (j) => wire.parseTokensInfoResponse(j, strict));
  const swapInfo = await get(srv, '/swap/info', (j) => wire.parseSwapInfoResponse(j, strict));
  const markets = await get(srv, '/markets/info', (j) => wire.parseMarketsInfoResponse(j, strict));
  const exchangeInfo = await get(srv, '/exchange/info', (j) => wire.parseExchangeInfoResponse(j, strict));
  const poolsInfo = await get(srv, '/pools/info', (j) => wire.parsePoolsInfoResponse(j, strict));
  const state = await get(srv, '/pools/state', (j) => wire.parsePoolsStateResponse(j, strict));
  const proof = await get(srv, '/pools/proof', (j) => wire.parsePoolsProofResponse(j, strict));
  const stats = await get(srv, '/stats', (j) => wire.parseStatsResponse(j, strict));
  const volume = await get(srv, '/volume', (j) => wire.parseVolumeResponse(j, strict));
  const end = wire.formatApiTimestamp(ex.nowMs() - 3_600_000);
  const start = wire.formatApiTimestamp(ex.nowMs() - 3 * 86_400_000);
  const volumeWindow = await get(
    srv,
    `/volume?start_time=${encodeURIComponent(start)}&end_time=${encodeURIComponent(end)}`,
    (j) => wire.parseVolumeResponse(j, strict),
  );
  const pairs = await get(srv, '/aggregator/pairs', (j) => wire.parseAggregatorPairsResponse(j, strict));
  const tickers = await get(srv, '/aggregator/tickers', (j) =>
    wire.parseAggregatorTickersResponse(j, strict),
  );
  // the live paths (docs/protocol/api-decisions.md §10) parse the same
  expect(await get(srv, '/coingecko/pairs', (j) => wire.parseAggregatorPairsResponse(j, strict))).toEqual(
    pairs,
  );
  await get(srv, '/coingecko/tickers', (j) => wire.parseAggregatorTickersResponse(j, strict));
  // the extension (`?include_proof=true`): the same tickers with each one's contract and blob
  const tickersProved = await get(srv, '/aggregator/tickers?include_proof=true', (j) =>
    wire.parseAggregatorTickersResponse(j, strict),
  );
  expect(tickersProved.map(({ contract_id: _c, created_event_blob: _b, ...t }) => t)).toEqual(tickers);
  expect(tickersProved.every((t) => t.contract_id !== undefined && t.created_event_blob !== undefined)).toBe(
    true,
  );
  const orderbooks = new Map<string, wire.AggregatorOrderbookResponse>();
  for (const p of pairs) {
    const id = encodeURIComponent(p.ticker_id);
    orderbooks.set(
      p.ticker_id,
      await get(srv, `/aggregator/orderbook?ticker_id=${id}`, (j) =>
        wire.parseAggregatorOrderbookResponse(j, strict),
      ),
    );
    await get(srv, `/aggregator/orderbook?ticker_id=${id}&depth=2`, (j) =>
      wire.parseAggregatorOrderbookResponse(j, strict),
    );
  }
  const cc = ex.cc();
  const quotes = new Map<string, { connect: unknown; pool: unknown }>();
  for (const t of ex.tokens()) {
    if (t.id === cc.id && t.admin === cc.admin) continue;
    const body = {
      sellAmount: '100',
      sellInstrumentId: cc.id,
      sellInstrumentAdmin: cc.admin,
      buyInstrumentId: t.id,
      buyInstrumentAdmin: t.admin,
    };
    const connect = parseQuote('connect', await postJson(`${srv.base}/connect/quote`, body));
    const pool = parseQuote('pool', await postJson(`${srv.base}/pools/quote`, body));
    quotes.set(t.symbol, { connect, pool });
  }
  // the error bodies
  expect(await getError(srv, '/v1/public/no/such/path', 404)).toBe('not found');
  expect(await getError(srv, '/v1/public/aggregator/orderbook?ticker_id=NOPE_CC', 404)).toBe(
    'unknown ticker_id',
  );
  expect(await getError(srv, '/v1/public/volume?start_time=2026-13-01T00:00:00Z', 400)).toContain(
    'month 13 is out of range',
  );
  return {
    tokens,
    swapInfo,
    markets,
    exchangeInfo,
    poolsInfo,
    state,
    proof,
    stats,
    volume,
    volumeWindow,
    pairs,
    tickers,
    orderbooks,
    quotes,
  };
}

function ticker(p: Parsed, id: string): wire.AggregatorTicker {
  const t = p.tickers.find((x) => x.ticker_id === id);
  if (t === undefined) throw new Error(`no ticker ${id}`);
  return t;
}

function stateOf(p: Parsed, poolId: string): wire.PoolStateInfo {
  const s = p.state.data.pools.find((x) => x.pool_id === poolId);
  if (s === undefined) throw new Error(`no pool ${poolId} in /pools/state`);
  return s;
}

/** Removes every LP unit (the operator holds them all at genesis): reserves become zero. */
function emptyPool(ex: SimulatedExchange, poolId: string): PoolState {
  const pool = ex.pools().find((p) => p.poolId === poolId);
  if (pool === undefined) throw new Error(`no pool ${poolId}`);
  return ex.removeLiquidity(poolId, pool.totalLpSupply, ex.operatorParty());
}

describe('a fresh exchange with no history', () => {
  let srv: TestServer;
  let close: () => void;
  let ex: SimulatedExchange;
  beforeAll(async () => {
    const l = openTestLedger({ seed: 'wire-fresh' });
    ex = l.exchange;
    close = () => l.db.close();
    srv = await startTestServer({ exchange: ex });
  });
  afterAll(async () => {
    await srv.close();
    close();
    expect(srv.loggedErrors).toEqual([]);
  });

  it('every endpoint parses; no pool has trades, no market has volume', async () => {
    const p = await parseEveryEndpoint(srv, ex);
    const s = p.stats.stats;
    expect([s.swaps.count_1h, s.swaps.count_24h, s.swaps.count_7d, s.swaps.count_30d]).toEqual([0, 0, 0, 0]);
    expect(s.swaps.cc_volume_30d).toBe('0.0000000000');
    expect(s.swap_performance).toEqual({ chart_data: [], avg_speed: 0, consistency: 0, fastest: 0 });
    expect(s.chart_volume).toHaveLength(30);
    expect(s.chart_volume.every((b) => b.cc_volume_total === '0.0000000000')).toBe(true);
    expect(s.active_traders.count_90d).toBe(0);
    for (const v of [p.volume, p.volumeWindow]) expect(v.data.swap_count).toBe('0');
    expect(p.tickers.length).toBeGreaterThan(3);
    for (const t of p.tickers) {
      expect([t.base_volume, t.target_volume, t.high, t.low], t.ticker_id).toEqual([0, 0, null, null]);
      expect(t.last_price, t.ticker_id).not.toBeNull();
    }
    const q = p.quotes.get('USDCX')?.connect as wire.ConnectQuoteResponse;
    expect(q.estimated_time_seconds).toBe('12.00');
  });
});

describe('an empty pool, pools with no trades, markets with no volume', () => {
  let srv: TestServer;
  let close: () => void;
  let ex: SimulatedExchange;
  beforeAll(async () => {
    const l = openTestLedger({ seed: 'wire-empty' });
    ex = l.exchange;
    close = () => l.db.close();
    // one Connect swap on CC-USDCX: every other pool has no trades, every other market no volume
    const r = ex.transfer({ sender: TRADER, instrument: ex.cc(), amount: '100', memo: 'USDCx' });
    expect(r.status).toBe('executed');
    l.clock.advanceMs(60_000);
    emptyPool(ex, CTX_POOL);
    emptyPool(ex, CBTC_SHALLOW_POOL);
    l.clock.advanceMs(60_000);
    srv = await startTestServer({ exchange: ex });
  });
  afterAll(async () => {
    await srv.close();
    close();
    expect(srv.loggedErrors).toEqual([]);
  });

  it('every endpoint parses, and an empty pool has no price anywhere', async () => {
    const p = await parseEveryEndpoint(srv, ex);
    // the empty pool: still active and proven, reserves zero, price null
    const empty = stateOf(p, CTX_POOL);
    expect([empty.reserve_a, empty.reserve_b, empty.price]).toEqual(['0.0000000000', '0.0000000000', null]);
    const proof = p.proof.data.pools.find((x) => x.pool_id === CTX_POOL);
    expect(proof?.reserve_contract.reserve_a).toBe('0.0000000000');
    // its market: the ticker has no price, the order book no levels
    const t = ticker(p, 'CTX_CC');
    expect([t.last_price, t.bid, t.ask, t.high, t.low]).toEqual([null, null, null, null, null]);
    expect(p.orderbooks.get('CTX_CC')).toMatchObject({ bids: [], asks: [] });
    // a quote through it is refused with a parseable error body
    expect(p.quotes.get('CTX')?.connect).toHaveProperty('error');
    // a pair whose other pool is empty is priced by its deepest pool
    expect(ticker(p, 'CBTC_CC').last_price).not.toBeNull();
    expect(stateOf(p, CBTC_SHALLOW_POOL).price).toBeNull();
    // the traded market has volume, the others none
    const traded = ticker(p, 'CC_USDCX');
    expect(traded.base_volume).toBeGreaterThan(0);
    expect(traded.high).not.toBeNull();
    for (const id of ['MOD_CC', 'TF-USDT_CC', 'CBTC_CC']) {
      const x = ticker(p, id);
      expect([x.base_volume, x.target_volume, x.high, x.low], id).toEqual([0, 0, null, null]);
    }
    expect(p.stats.stats.swaps.count_24h).toBe(1);
    expect(p.volume.data.swap_count).toBe('1');
    const q = p.quotes.get('USDCX')?.connect as wire.ConnectQuoteResponse;
    expect(q.pools).toHaveLength(1);
  });
});
