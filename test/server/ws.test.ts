/**
 * The public websocket (api-decisions §7): subscribe → subscribed + one snapshot per channel,
 * live updates after a swap, unsubscribe, client ping → pong, server pings and the disconnect after
 * two unanswered ones, error frames (bad JSON, unknown op, unknown channel) that keep the socket
 * open, case-insensitive names echoing the client's spelling, the channel and frame limits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createFakeExchange, type FakeExchange } from './helpers/fake-exchange.js';
import { startTestServer, type TestServer } from './helpers/start.js';

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.close();
  expect(srv?.loggedErrors ?? []).toEqual([]);
  srv = undefined;
});

type Frame = Record<string, unknown>;

class Client {
  readonly frames: Frame[] = [];
  #waiters: (() => void)[] = [];
  closed = false;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      this.frames.push(JSON.parse(d.toString()) as Frame);
      for (const w of this.#waiters.splice(0)) w();
    });
    ws.on('close', () => {
      this.closed = true;
      for (const w of this.#waiters.splice(0)) w();
    });
  }
  send(v: unknown): void {
    this.ws.send(typeof v === 'string' ? v : JSON.stringify(v));
  }
  /** waits until `pred` holds over the frames received so far */
  async until(pred: (frames: Frame[]) => boolean, ms = 3000): Promise<Frame[]> {
    const deadline = Date.now() + ms;
    while (!pred(this.frames)) {
      if (Date.now() > deadline)
        throw new Error(`timeout; frames: ${JSON.stringify(this.frames).slice(0, 800)}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 50);
      });
    }
    return this.frames;
  }
  async closedWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }
}

async function connect(s: TestServer, path = '/v1/ws/public'): Promise<Client> {
  const ws = new WebSocket(`${s.origin.replace('http', 'ws')}${path}`);
  const c = new Client(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return c;
}

async function setup(
  opts: { pingIntervalMs?: number; maxBufferedBytes?: number } = {},
): Promise<{ ex: FakeExchange; s: TestServer }> {
  const ex = createFakeExchange();
  ex.advance(-120_000);
  ex.swap('2820898830768735469', 500);
  ex.advance(120_000);
  srv = await startTestServer({ exchange: ex, ws: { updateDelayMs: 10, ...opts } });
  return { ex, s: srv };
}

describe('websocket /v1/ws/public', () => {
  it('subscribe → subscribed, then one snapshot per channel, echoing the client spelling', async () => {
    const { s } = await setup();
    const c = await connect(s);
    c.send({ op: 'subscribe', channels: ['market.cc-usdcx.ticker', 'market.CC-USDCx.candles.60'] });
    const frames = await c.until((f) => f.filter((x) => x.event_type === 'snapshot').length === 2);
    expect(frames[0]).toEqual({
      op: 'subscribed',
      channels: ['market.cc-usdcx.ticker', 'market.CC-USDCx.candles.60'],
    });
    const ticker = frames.find((f) => f.channel === 'market.cc-usdcx.ticker');
    expect(ticker?.event_type).toBe('snapshot');
    expect(typeof ticker?.ts).toBe('number');
    const td = ticker?.data as Record<string, unknown>;
    expect(Object.keys(td).sort()).toEqual(
      ['ask', 'bid', 'change_24h', 'high_24h', 'low_24h', 'market', 'price', 'ts', 'volume_24h_cc'].sort(),
    );
    expect(td.market).toBe('CC-USDCX');
    expect(td.price).toMatch(/^\d+\.\d{10}$/);
    expect(Number(td.bid)).toBeLessThan(Number(td.price));
    expect(Number(td.ask)).toBeGreaterThan(Number(td.price));
    const candles = frames.find((f) => f.channel === 'market.CC-USDCx.candles.60');
    const cd = candles?.data as { market: string; period: number; bars: Record<string, unknown>[] };
    expect(cd.market).toBe('CC-USDCX');
    expect(cd.period).toBe(60);
    expect(cd.bars).toHaveLength(1);
    const bar = cd.bars[0] as Record<string, unknown>;
    expect(Object.keys(bar).sort()).toEqual(['close', 'high', 'low', 'open', 'start_ts', 'volume']);
    expect((bar.start_ts as number) % 60_000).toBe(0);
    c.ws.close();
  });

  it('pushes updates after a swap, only for subscribed markets; unsubscribe stops them', async () => {
    const { ex, s } = await setup();
    const c = await connect(s);
    c.send({ op: 'subscribe', channels: ['market.CC-USDCX.ticker', 'market.CC-USDCX.candles.300'] });
    await c.until((f) => f.filter((x) => x.event_type === 'snapshot').length === 2);
    const before = c.frames.length;
    ex.swap('1001', 10); // another market: no frame
    ex.swap('2820898830768735469', 1000);
    const frames = await c.until((f) => f.filter((x) => x.event_type === 'update').length === 2);
    const updates = frames.slice(before);
    expect(updates.every((u) => String(u.channel).startsWith('market.CC-USDCX'))).toBe(true);
    const tick = updates.find((u) => u.channel === 'market.CC-USDCX.ticker')?.data as { price: string };
    const live = ex.pools().find((p) => p.poolId === '2820898830768735469');
    expect(Number(tick.price)).toBeCloseTo(Number(live?.reserveB) / Number(live?.reserveA), 9);
    const bars = (
      updates.find((u) => u.channel === 'market.CC-USDCX.candles.300')!.data as { bars: { close: string }[] }
    ).bars;
    expect(bars.length).toBeGreaterThanOrEqual(1);
    expect(bars.at(-1)?.close).toBe(tick.price);

    c.send({ op: 'unsubscribe', channels: ['MARKET.cc-usdcx.TICKER'] });
    await c.until((f) => f.some((x) => x.op === 'unsubscribed'));
    expect(c.frames.find((x) => x.op === 'unsubscribed')).toEqual({
      op: 'unsubscribed',
      channels: ['MARKET.cc-usdcx.TICKER'],
    });
    const n = c.frames.length;
    ex.swap('2820898830768735469', 1000);
    await c.until((f) => f.length > n);
    expect(c.frames.slice(n).map((f) => f.channel)).toEqual(['market.CC-USDCX.candles.300']);
    c.ws.close();
  });

  it('ping → pong; errors (bad JSON, unknown op, unknown channel) keep the socket open', async () => {
    const { s } = await setup();
    const c = await connect(s);
    c.send({ op: 'ping' });
    c.send('not json');
    c.send({ op: 'dance' });
    c.send({
      op: 'subscribe',
      channels: ['market.NOPE-CC.ticker', 'market.CC-USD.candles.60', 'market.CC-USDCX.candles.61'],
    });
    c.send({ op: 'subscribe', channels: 'market.CC-USDCX.ticker' });
    c.send({ channels: [] });
    c.send([1]);
    c.send({ op: 'unsubscribe', channels: ['market.CC-USDCX.ticker'] });
    c.send({ op: 'subscribe', channels: ['market.CC-USD.ticker'] });
    const frames = await c.until((f) => f.some((x) => x.channel === 'market.CC-USD.ticker'));
    expect(frames[0]).toEqual({ op: 'pong' });
    const errors = frames.filter((f) => f.op === 'error');
    expect(errors.map((e) => e.error)).toEqual([
      'invalid JSON',
      'unknown op: dance',
      // one error frame per request, however many names it gets wrong
      'unknown channels (3): market.NOPE-CC.ticker, market.CC-USD.candles.60, market.CC-USDCX.candles.61',
      'channels must be an array of strings',
      'missing op',
      'expected a JSON object with an "op" field',
      'not subscribed: market.CC-USDCX.ticker',
    ]);
    for (const e of errors) expect(e.message).toBe(e.error);
    expect(c.closed).toBe(false);
    c.ws.close();
  });

  it('a socket without subscriptions receives only pings; two unanswered pings → disconnected', async () => {
    const { s } = await setup({ pingIntervalMs: 150 });
    const silent = await connect(s);
    const polite = await connect(s);
    polite.ws.on('message', (d) => {
      if (JSON.parse(d.toString()).op === 'ping') polite.send({ op: 'pong' });
    });
    expect(await silent.closedWithin(3000)).toBe(true);
    expect(silent.frames.length).toBeGreaterThanOrEqual(2);
    expect(silent.frames.every((f) => f.op === 'ping')).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(polite.closed).toBe(false);
    polite.ws.close();
  });

  it('at most 100 channels per connection', async () => {
    const { s } = await setup();
    const c = await connect(s);
    const names = Array.from({ length: 101 }, (_, i) =>
      `market.CC-USDCX.ticker`.replace('ticker', i % 2 === 0 ? 'ticker' : 'candles.60'),
    );
    // duplicates count once: 2 distinct channels, accepted
    c.send({ op: 'subscribe', channels: names });
    await c.until((f) => f.some((x) => x.op === 'subscribed'));
    expect(c.frames.find((x) => x.op === 'subscribed')?.channels).toHaveLength(2);
    c.ws.close();
    // 101 distinct valid names are impossible on this market; use a small limit to prove the rule
    await srv?.close();
    const ex = createFakeExchange();
    srv = await startTestServer({ exchange: ex, ws: { maxChannels: 3 } });
    const c2 = await connect(srv);
    c2.send({
      op: 'subscribe',
      channels: [
        'market.CC-USDCX.ticker',
        'market.CC-USDCX.candles.60',
        'market.CC-USDCX.candles.300',
        'market.CC-USDCX.candles.600',
      ],
    });
    await c2.until((f) => f.some((x) => x.op === 'subscribed') && f.some((x) => x.op === 'error'));
    expect(c2.frames.find((x) => x.op === 'subscribed')?.channels).toHaveLength(3);
    expect(c2.frames.find((x) => x.op === 'error')?.error).toBe(
      'too many channels: at most 3 per connection',
    );
    c2.ws.close();
  });

  it('a frame over 64 KiB closes the socket (1009); other paths are refused', async () => {
    const { s } = await setup();
    const c = await connect(s);
    const code = new Promise<number>((r) => c.ws.once('close', (n) => r(n)));
    c.send({ op: 'ping', pad: 'x'.repeat(70_000) });
    expect(await code).toBe(1009);
    await expect(connect(s, '/v1/ws/other')).rejects.toThrow();
  });

  it('slow consumers are dropped', async () => {
    const ex = createFakeExchange();
    ex.advance(-300 * 60_000);
    for (let i = 0; i < 300; i++) {
      ex.swap('2820898830768735469', 10, i % 2 === 0);
      ex.advance(60_000);
    }
    // snapshotWindowMs 0: every fresh subscribe sends a snapshot (by default a toggle would not)
    srv = await startTestServer({ exchange: ex, ws: { maxBufferedBytes: 1024 * 1024, snapshotWindowMs: 0 } });
    const c = await connect(srv);
    // stop reading: the server's send buffer can only grow
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    expect(srv.app.websocketClients()).toBe(1);
    // a fresh subscription gets a snapshot each time here (a re-subscribe would not)
    for (let i = 0; i < 250; i++) {
      c.send({ op: 'subscribe', channels: ['market.CC-USDCX.candles.60'] });
      c.send({ op: 'unsubscribe', channels: ['market.CC-USDCX.candles.60'] });
    }
    const deadline = Date.now() + 5000;
    while (srv.app.websocketClients() > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(srv.app.websocketClients()).toBe(0);
  });
});
