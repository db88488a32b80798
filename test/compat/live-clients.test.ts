/**
 * Clients written like those of the live service run unchanged against the reference server
 * (docs/protocol/api-decisions.md §10), with only the base URL changed and `exchangeName: "cantex"` (what
 * `serve --exchange-name cantex` sets). Our own minimal clients, written to what such clients do:
 *
 * - a TVL adapter: credits each pool's reserves to the tokens' `coingecko_id`s (it throws
 *   "no coingecko ids" when none is listed);
 * - a data collector: keeps the markets whose `source` is the exchange's name, subscribes to their
 *   candle channels, and gets 500 hourly bars after 22 days of history;
 * - a bot: quotes "1" CC on POST /pools/quote and reads `prices.pool_before` as the mid price;
 * - a websocket client on `market.CC-USDC.ticker`, the older name of the CC/USDCx market.
 *
 * The ledger is the real simulated one (SQLite :memory:, manual clock); the history is one CC/USDCx
 * swap per hour for 22 days (528 hours > 500 bars).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, createApp } from '../../src/server/app.js';
import { createManualClock, type ManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import type { SimulatedExchange } from '../../src/sim/simulated-exchange.js';
import { openServerDb, type ServerDb } from '../../src/sim/store/connection.js';

const HOUR = 3_600_000;
const DAYS = 22;
const T_START = Date.UTC(2026, 9, 31, 0, 30, 0);

let db: ServerDb;
let clock: ManualClock;
let ex: SimulatedExchange;
let app: App;
let server: Server;
let base: string;
let wsUrl: string;

beforeAll(async () => {
  db = openServerDb(':memory:');
  clock = createManualClock(T_START);
  ex = createExchange({
    db,
    clock,
    rng: createSeededRng('live-clients'),
    contractIdVersion: 'v12',
    seedMarket: loadSeedMarket(),
  });
  const cc = ex.cc();
  const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
  if (usdcx === undefined) throw new Error('seed market without USDCx');
  // one CC/USDCx swap per hour, alternating direction, for 22 days
  for (let h = 0; h < DAYS * 24; h++) {
    clock.advanceMs(HOUR);
    const sellCc = h % 2 === 0;
    const r = ex.transfer({
      sender: `trader-${h % 7}::1220aa`,
      instrument: sellCc ? cc : usdcx,
      amount: sellCc ? '300' : '50',
      memo: sellCc ? usdcx.id : cc.id,
    });
    if (r.status !== 'executed') throw new Error(`history swap ${h} refunded: ${r.reason}`);
  }
  app = createApp({ exchange: ex, simulation: ex, clock, exchangeName: 'cantex', ws: { updateDelayMs: 10 } });
  server = createServer(app.handler);
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/v1/public`;
  wsUrl = `ws://127.0.0.1:${port}/v1/ws/public`;
});

afterAll(async () => {
  await app.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db.close();
});

async function get<T>(path: string): Promise<T> {
  const r = await fetch(base + path);
  expect(r.status, path).toBe(200);
  return (await r.json()) as T;
}

interface TokenInfo {
  instrument_admin: string;
  instrument_id: string;
  coingecko_id?: string | null;
}
interface PoolStateEntry {
  symbol: string;
  token_a_instrument: { id: string; admin: string };
  token_b_instrument: { id: string; admin: string };
  reserve_a: string;
  reserve_b: string;
  price: string | null;
  tvl_cc: string;
}

/** A websocket client that collects every frame. */
async function openClient(): Promise<{ ws: WebSocket; frames: Record<string, unknown>[] }> {
  const ws = new WebSocket(wsUrl);
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Record<string, unknown>));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames };
}

async function until(frames: Record<string, unknown>[], ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(frames).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('clients written for the live service', () => {
  it('TVL adapter: credits reserves to coingecko ids', async () => {
    const tokens = (await get<{ tokens: { info: TokenInfo }[] }>('/tokens/info')).tokens.map((t) => t.info);
    const idOf = new Map<string, string>();
    for (const t of tokens)
      if (typeof t.coingecko_id === 'string')
        idOf.set(`${t.instrument_admin}|${t.instrument_id}`, t.coingecko_id);
    if (idOf.size === 0) throw new Error('no coingecko ids');
    const pools = (await get<{ data: { pools: PoolStateEntry[] } }>('/pools/state')).data.pools;
    // balances in token units, kept as decimal strings summed exactly (scaled bigint)
    const balances = new Map<string, bigint>();
    const units = (s: string): bigint => {
      const [i, f = ''] = s.split('.');
      return BigInt(i ?? '0') * 10n ** 10n + BigInt(f.padEnd(10, '0'));
    };
    for (const p of pools) {
      for (const [tok, reserve] of [
        [p.token_a_instrument, p.reserve_a],
        [p.token_b_instrument, p.reserve_b],
      ] as const) {
        const id = idOf.get(`${tok.admin}|${tok.id}`);
        if (id !== undefined) balances.set(id, (balances.get(id) ?? 0n) + units(reserve));
      }
    }
    expect([...balances.keys()]).toEqual(
      expect.arrayContaining(['canton-network', 'xreserve-bridged-usdc-canton']),
    );
    // CC credited = the CC side of every pool = Σ tvl_cc / 2
    const ccSide = pools.reduce((s, p) => s + units(p.tvl_cc), 0n) / 2n;
    expect(balances.get('canton-network')).toBe(ccSide);
    // every info carries both spellings, equal
    const raw = (await get<{ tokens: { info: Record<string, unknown> }[] }>('/tokens/info')).tokens;
    for (const t of raw) expect(t.info.coingecko_id).toBe(t.info.price_aggregator_id);
  });

  it('data collector: keeps the exchange-named markets, subscribes to their candles, gets 500 hourly bars', async () => {
    const info = await get<{
      data: { markets: { symbol: string; source: string; channels: { candles: string[] } }[] };
    }>('/markets/info');
    const mine = info.data.markets.filter((m) => m.source === 'cantex');
    expect(mine.map((m) => m.symbol)).toContain('CC-USDCX');
    expect(info.data.markets.filter((m) => m.source === 'external').map((m) => m.symbol)).toEqual(['CC-USD']);
    const channels = mine.flatMap((m) => m.channels.candles);
    expect(channels.length).toBeGreaterThanOrEqual(4 * mine.length);
    const c = await openClient();
    c.ws.send(JSON.stringify({ op: 'subscribe', channels }));
    const snapshots = (): Record<string, unknown>[] => c.frames.filter((f) => f.event_type === 'snapshot');
    await until(c.frames, () => snapshots().length === channels.length);
    const hourly = snapshots().find((f) => f.channel === 'market.CC-USDCX.candles.3600');
    if (hourly === undefined) throw new Error('no hourly snapshot');
    const bars = (hourly.data as { bars: { start_ts: number }[] }).bars;
    expect(bars).toHaveLength(500);
    for (let i = 1; i < bars.length; i++) expect(bars[i]?.start_ts).toBe((bars[i - 1]?.start_ts ?? 0) + HOUR);
    // the frame is sent whole: over the 64 KiB limit of client frames (docs/protocol/api-decisions.md §10)
    const text = JSON.stringify(hourly);
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024);
    c.ws.close();
  });

  it('bot: quotes "1" CC on /pools/quote and reads prices.pool_before as the mid price', async () => {
    const cc = ex.cc();
    const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
    const r = await fetch(`${base}/pools/quote`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({
        sellAmount: '1',
        sellInstrumentId: cc.id,
        sellInstrumentAdmin: cc.admin,
        buyInstrumentId: usdcx?.id,
        buyInstrumentAdmin: usdcx?.admin,
      }),
    });
    expect(r.status).toBe(200);
    const q = (await r.json()) as { prices: { pool_before: string }; pools: { pool_id: string }[] };
    const pools = (await get<{ data: { pools: (PoolStateEntry & { pool_id: string })[] } }>('/pools/state'))
      .data.pools;
    const used = pools.find((p) => p.pool_id === q.pools[0]?.pool_id);
    expect(used?.symbol).toBe('CC-USDCX');
    expect(q.prices.pool_before).toBe(used?.price);
  });

  it('the swap minimum applies when a swap executes: a transfer under it is refunded in full', () => {
    const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
    const minimum = ex.policy().minSwapAmountSizeCc;
    const r = ex.transfer({ sender: 'bot::1220bb', instrument: ex.cc(), amount: '5', memo: usdcx?.id ?? '' });
    expect(Number('5')).toBeLessThan(Number(minimum));
    expect(r.status).toBe('refunded');
    if (r.status === 'refunded') {
      expect(r.reason).toBe('minimum ticket size is 50 CC, or equivalent in other instruments');
      expect(r.refund.amount).toBe('5');
    }
  });

  it('websocket client on market.CC-USDC.ticker: snapshot, then updates, in its own spelling', async () => {
    const c = await openClient();
    c.ws.send(JSON.stringify({ op: 'subscribe', channels: ['market.CC-USDC.ticker'] }));
    await until(c.frames, () => c.frames.some((f) => f.event_type === 'snapshot'));
    expect(c.frames[0]).toEqual({ op: 'subscribed', channels: ['market.CC-USDC.ticker'] });
    const snap = c.frames.find((f) => f.event_type === 'snapshot') as {
      channel: string;
      data: { market: string; price: string };
    };
    expect(snap.channel).toBe('market.CC-USDC.ticker');
    expect(snap.data.market).toBe('CC-USDCX');
    const state = (await get<{ data: { pools: PoolStateEntry[] } }>('/pools/state')).data.pools;
    expect(state.map((p) => p.price)).toContain(snap.data.price);
    // a swap moves the price: an update arrives on the alias
    const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
    clock.advanceMs(1000);
    ex.transfer({ sender: 'bot::1220bb', instrument: ex.cc(), amount: '1000', memo: usdcx?.id ?? '' });
    await until(c.frames, () => c.frames.some((f) => f.event_type === 'update'));
    const upd = c.frames.find((f) => f.event_type === 'update') as {
      channel: string;
      data: { price: string };
    };
    expect(upd.channel).toBe('market.CC-USDC.ticker');
    expect(upd.data.price).not.toBe(snap.data.price);
    c.ws.close();
  });
});
