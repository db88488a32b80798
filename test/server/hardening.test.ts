/**
 * Server hardening (the issue "Server hardening found on the way"), over raw sockets (node:net)
 * where a client library would refuse to send the request:
 * - an `Upgrade` header on an HTTP path (curl --http2 asks for h2c) is served over HTTP/1.1;
 * - requests Node's parser rejects get a JSON `{"error"}` with the right 4xx;
 * - websocket: upgrades count against the rate limit, open sockets are capped per address, a
 *   re-subscribe does not re-send snapshots, one error frame per request;
 * - quote input: control characters in affiliateCode, leading zeros in sellAmount.
 */
import { connect as netConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CC, createFakeExchange, USDCX } from './helpers/fake-exchange.js';
import { postJson, startTestServer, type TestServer } from './helpers/start.js';

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

interface RawAnswer {
  readonly statusLine: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Writes `bytes` on a fresh connection and reads one answer: until its Content-Length is complete,
 * or the server closes, or 3 s pass.
 */
function rawExchange(origin: string, bytes: string | Buffer): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const sock = netConnect(Number(url.port), url.hostname);
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      const text = buf.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({
        statusLine,
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body:
          end < 0 ? '' : buf.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).toString('utf8'),
      });
    };
    const timer = setTimeout(finish, 3000);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const text = buf.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end < 0 ? text.length : end));
      if (end >= 0 && m !== null && buf.length - (end + 4) >= Number(m[1])) finish();
    });
    sock.on('close', finish);
    sock.on('error', (e) => (done ? undefined : buf.length > 0 ? finish() : reject(e)));
    sock.write(bytes);
  });
}

const H2C =
  'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';

function quoteBody(extra: Record<string, unknown> = {}, amount = '100'): Record<string, unknown> {
  return {
    sellAmount: amount,
    sellInstrumentId: CC.id,
    sellInstrumentAdmin: CC.admin,
    buyInstrumentId: USDCX.id,
    buyInstrumentAdmin: USDCX.admin,
    ...extra,
  };
}

describe('an Upgrade header on an HTTP path', () => {
  it('GET with Upgrade: h2c (curl --http2) is answered 200 over HTTP/1.1', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const r = await rawExchange(srv.origin, `GET /v1/public/pools/state HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`);
    expect(r.statusLine).toBe('HTTP/1.1 200 OK');
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((JSON.parse(r.body) as { data: { pools: unknown[] } }).data.pools.length).toBeGreaterThan(0);
    // a websocket upgrade on an HTTP path is an HTTP request too
    const w = await rawExchange(
      srv.origin,
      'GET /v1/public/tokens/info HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(w.status).toBe(200);
    // an unknown path: the usual JSON 404
    const n = await rawExchange(srv.origin, `GET /v1/public/nope HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`);
    expect(n.status).toBe(404);
    expect(JSON.parse(n.body)).toEqual({ error: 'not found' });
    expect(srv.loggedErrors).toEqual([]);
  });

  it('POST with Upgrade and a body split over several packets is answered like any quote', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const body = JSON.stringify(quoteBody());
    const origin = srv.origin;
    const url = new URL(origin);
    const answer = await new Promise<string>((resolve) => {
      const sock = netConnect(Number(url.port), url.hostname);
      let out = '';
      sock.on('data', (d) => {
        out += d.toString('utf8');
      });
      sock.on('close', () => resolve(out));
      sock.write(
        `POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\n${H2C.replace('HTTP2-Settings\r\n', 'HTTP2-Settings, close\r\n')}` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      setTimeout(() => sock.write(body.slice(20)), 50);
    });
    expect(answer.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(answer).toContain('"memo":"USDCx"');
  });
});

describe('requests the HTTP parser rejects get a JSON 4xx', () => {
  const cases: [string, string | Buffer, number][] = [
    ['bad method token', 'G@T /v1/public/stats HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'bad header bytes',
      Buffer.from('GET /v1/public/stats HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 'latin1'),
      400,
    ],
    ['a space in a header name', 'GET /v1/public/stats HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n', 400],
    [
      'Content-Length: -1',
      'POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      400,
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    [
      'a bad chunk',
      'POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      400,
    ],
    [
      'headers too large',
      `GET /v1/public/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
      431,
    ],
  ];

  it.each(cases)('%s → a JSON 4xx', async (_name, bytes, status) => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const r = await rawExchange(srv.origin, bytes);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(r.body) as { error: unknown };
    expect(Object.keys(body)).toEqual(['error']);
    expect(typeof body.error).toBe('string');
    expect(srv.loggedErrors).toEqual([]);
  });

  it('the messages name the rule', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const big = await rawExchange(srv.origin, `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(JSON.parse(big.body)).toEqual({ error: 'request headers too large' });
    const te = await rawExchange(
      srv.origin,
      'POST /v1/public/connect/quote HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    expect(JSON.parse(te.body)).toEqual({
      error: 'invalid Transfer-Encoding (chunked only, never with Content-Length)',
    });
  });
});

/** Opens a websocket; resolves with the socket, or with the HTTP status of a refused upgrade. */
function openWs(origin: string): Promise<{ ws?: WebSocket; status?: number; body?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/v1/ws/public`);
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', () => resolve({}));
  });
}

function collect(ws: WebSocket): Record<string, unknown>[] {
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString()) as Record<string, unknown>));
  return frames;
}

async function waitFor(ok: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('websocket abuse', () => {
  it('upgrades count against the rate limit: 429 JSON with Retry-After', async () => {
    srv = await startTestServer({
      exchange: createFakeExchange(),
      rateLimit: { perSecond: 0.001, burst: 2 },
    });
    const a = await openWs(srv.origin);
    const b = await openWs(srv.origin);
    const c = await openWs(srv.origin);
    expect(a.ws).toBeDefined();
    expect(b.ws).toBeDefined();
    expect(c.status).toBe(429);
    expect(JSON.parse(c.body ?? '')).toEqual({ error: 'rate limit exceeded' });
    a.ws?.close();
    b.ws?.close();
  });

  it('at most maxSocketsPerClient open sockets per address; a closed one frees its place', async () => {
    srv = await startTestServer({ exchange: createFakeExchange(), ws: { maxSocketsPerClient: 3 } });
    const open = await Promise.all([1, 2, 3].map(() => openWs(srv?.origin ?? '')));
    expect(open.every((o) => o.ws !== undefined)).toBe(true);
    const fourth = await openWs(srv.origin);
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body ?? '')).toEqual({
      error: 'too many websocket connections: at most 3 per client address',
    });
    const closed = new Promise((r) => open[0]?.ws?.once('close', r));
    open[0]?.ws?.close();
    await closed;
    await waitFor(() => (srv?.app.websocketClients() ?? 0) === 2);
    // the server side of the socket closes right after the client's close frame
    let again = await openWs(srv.origin);
    for (let i = 0; i < 20 && again.ws === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openWs(srv.origin);
    }
    expect(again.ws).toBeDefined();
    for (const o of [...open.slice(1), again]) o.ws?.close();
  });

  it('a re-subscribe is confirmed without re-sending the snapshot', async () => {
    srv = await startTestServer({ exchange: createFakeExchange(), ws: { updateDelayMs: 10 } });
    const { ws } = await openWs(srv.origin);
    if (ws === undefined) throw new Error('no socket');
    const frames = collect(ws);
    const channels = ['market.CC-USDCX.ticker', 'market.CC-USDCX.candles.60'];
    for (let i = 0; i < 20; i++) ws.send(JSON.stringify({ op: 'subscribe', channels }));
    ws.send(
      JSON.stringify({ op: 'subscribe', channels: ['market.cc-usdcx.TICKER', 'market.MOD-CC.ticker'] }),
    );
    ws.send(JSON.stringify({ op: 'ping' }));
    await waitFor(() => frames.some((f) => f.op === 'pong'));
    expect(frames.filter((f) => f.op === 'subscribed')).toHaveLength(21);
    const snapshots = frames.filter((f) => f.event_type === 'snapshot').map((f) => f.channel);
    // one snapshot per channel, plus the one new channel of the last request
    expect(snapshots).toEqual([...channels, 'market.MOD-CC.ticker']);
    expect(frames.filter((f) => f.op === 'subscribed').at(-1)?.channels).toEqual([
      'market.cc-usdcx.TICKER',
      'market.MOD-CC.ticker',
    ]);
    ws.close();
  });

  it('thousands of unknown channels in one request: one error frame', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    const { ws } = await openWs(srv.origin);
    if (ws === undefined) throw new Error('no socket');
    const frames = collect(ws);
    const names = Array.from({ length: 3000 }, (_, i) => `market.N${i}.ticker`);
    ws.send(JSON.stringify({ op: 'subscribe', channels: names }));
    ws.send(JSON.stringify({ op: 'unsubscribe', channels: names.slice(0, 500) }));
    ws.send(JSON.stringify({ op: 'ping' }));
    await waitFor(() => frames.some((f) => f.op === 'pong'));
    const errors = frames.filter((f) => f.op === 'error').map((f) => f.error);
    expect(errors).toEqual([
      'unknown channels (3000): market.N0.ticker, market.N1.ticker, market.N2.ticker, …',
      'not subscribed (500): market.N0.ticker, market.N1.ticker, market.N2.ticker, …',
    ]);
    ws.close();
  });
});

describe('quote input', () => {
  it('a control character in affiliateCode → 400 invalid affiliateCode; leading zeros → invalid sellAmount', async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    for (const code of ['ab\u0000cd', 'line\nbreak', '\u001b[31mred']) {
      const r = await postJson(`${srv.base}/connect/quote`, quoteBody({ affiliateCode: code }));
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'invalid affiliateCode' });
    }
    for (const path of ['/connect/quote', '/pools/quote']) {
      const r = await postJson(`${srv.base}${path}`, quoteBody({}, '00100'));
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'invalid sellAmount' });
    }
    const ok = await postJson(`${srv.base}/pools/quote`, quoteBody({}, '1'));
    expect(ok.status).toBe(200);
  });
});
