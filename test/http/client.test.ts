/**
 * The undici HTTP client (src/io/http/client.ts) against small node:http servers on 127.0.0.1:0:
 * connection refused, connect/headers/body timeouts, 5xx/429/non-JSON retries with backoff (GETs
 * and POSTs marked as reads) inside one budget, Retry-After, pacing, the request counts,
 * truncated bodies, non-JSON, oversized bodies (announced and streamed, and a gzip bomb),
 * gzip/deflate decoding, credentials stripped from messages, the proxy convention.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors/http.js';
import { joinBaseUrl } from '../../src/io/http/base-url.js';
import {
  createHttpClient,
  type HttpClientOptions,
  parseBaseUrl,
  redactUrl,
} from '../../src/io/http/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const open: Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  open.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits, server };
}

afterEach(async () => {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A client whose backoff sleeps are recorded instead of waited. */
function testClient(o: HttpClientOptions = {}): {
  client: ReturnType<typeof createHttpClient>;
  sleeps: number[];
} {
  const sleeps: number[] = [];
  const client = createHttpClient({
    timeoutMs: 2_000,
    random: () => 1,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...o,
  });
  return { client, sleeps };
}

async function rejection(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return e as HttpError;
  }
  throw new Error('expected a rejection');
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

describe('transport failures', () => {
  it('connection refused → HTTP_CONNECT_FAILED after the GET retries, with exponential backoff', async () => {
    const port = await freePort();
    const { client, sleeps } = testClient({ retries: 2, retryBaseDelayMs: 100 });
    const e = await rejection(client.send('GET', `http://127.0.0.1:${port}/v1/public/pools/state`));
    expect(e.code).toBe('HTTP_CONNECT_FAILED');
    expect(e.message).toContain(`http://127.0.0.1:${port}/v1/public/pools/state`);
    expect(sleeps).toEqual([100, 200]);
    await client.close();
  });

  it('no response headers in time → HTTP_TIMEOUT', async () => {
    const s = await serve(() => {
      /* never answers */
    });
    const { client } = testClient({ timeoutMs: 300, retries: 0 });
    const t0 = Date.now();
    const e = await rejection(client.send('GET', `${s.url}/stats`));
    expect(e.code).toBe('HTTP_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(2_000);
    await client.close();
  });

  it('a body that stalls after the headers → HTTP_TIMEOUT', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data":');
    });
    const { client } = testClient({ timeoutMs: 300, retries: 0 });
    const e = await rejection(client.send('GET', `${s.url}/stats`));
    expect(e.code).toBe('HTTP_TIMEOUT');
    await client.close();
  });

  it('a slow drip that never completes is cut by the whole-request deadline', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
    const { client } = testClient({ timeoutMs: 400, retries: 0 });
    const e = await rejection(client.send('GET', `${s.url}/stats`));
    expect(e.code).toBe('HTTP_TIMEOUT');
    expect(e.shortMessage).toMatch(/did not complete within 400 ms/);
    await client.close();
  });

  it('Content-Length larger than what was sent → HTTP_TRUNCATED (retried for GETs)', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data": 1');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { client, sleeps } = testClient({ retries: 1 });
    const e = await rejection(client.send('GET', `${s.url}/pools/proof`));
    expect(e.code).toBe('HTTP_TRUNCATED');
    expect(s.hits()).toBe(2);
    expect(sleeps).toHaveLength(1);
    await client.close();
  });
});

describe('status handling and retries', () => {
  it('500, 500, 200 → the GET succeeds on the third attempt with backoff 100, 200', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      n++;
      if (n < 3) json(res, 500, { error: 'internal error' });
      else json(res, 200, { ok: true });
    });
    const { client, sleeps } = testClient({ retries: 2 });
    const { value, raw } = await client.getJson(`${s.url}/x`, (j) => j);
    expect(value).toEqual({ ok: true });
    expect(raw.status).toBe(200);
    expect(s.hits()).toBe(3);
    expect(sleeps).toEqual([100, 200]);
    expect(client.counts()).toMatchObject({ sent: 3, retried: 2, failed: 2, throttled: 0, exhausted: 0 });
    await client.close();
  });

  it('retries stop after the limit: HTTP_STATUS names the status and the {error} text', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'maintenance' }));
    const { client } = testClient({ retries: 2 });
    const e = await rejection(client.getJson(`${s.url}/pools/state`, (j) => j));
    expect(e.code).toBe('HTTP_STATUS');
    expect(e.shortMessage).toMatch(
      new RegExp(
        `^GET ${s.url}/pools/state answered status 503: "maintenance" \\(no usable answer in 3 attempts over [0-9.]+ s: 503 ×3\\)$`,
      ),
    );
    expect(e.details).toMatchObject({ attempts: 3, faults: { '503': 3 }, status: 503 });
    expect(s.hits()).toBe(3);
    expect(client.counts().exhausted).toBe(1);
    await client.close();
  });

  it('a POST is retried only when the caller marks it as a read (a quote)', async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      n++;
      if (n === 1 || n === 3) json(res, 500, { error: 'boom' });
      else json(res, 200, { ok: n });
    });
    const { client, sleeps } = testClient({ retries: 3 });
    const raw = await client.send('POST', `${s.url}/connect/quote`, '{"sellAmount":"1"}');
    expect(raw.status).toBe(500);
    expect(raw.requestBody).toBe('{"sellAmount":"1"}');
    expect(s.hits()).toBe(1);
    expect(sleeps).toEqual([]);
    expect((await client.send('POST', `${s.url}/connect/quote`, '{}', { read: true })).status).toBe(200);
    expect((await client.send('POST', `${s.url}/connect/quote`, '{}', { read: true })).status).toBe(200);
    expect(s.hits()).toBe(4);
    expect(sleeps).toEqual([100]);
    await client.close();
  });

  it('4xx is not retried; 429 waits its Retry-After (+ up to 10 % jitter)', async () => {
    const s4 = await serve((_req, res) => json(res, 404, { error: 'not found' }));
    const { client, sleeps } = testClient({ retries: 2, retryMaxDelayMs: 1500 });
    expect((await client.send('GET', `${s4.url}/nope`)).status).toBe(404);
    expect(s4.hits()).toBe(1);
    let n = 0;
    const s429 = await serve((_req, res) => {
      n++;
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error":"rate limit exceeded"}');
      } else json(res, 200, {});
    });
    expect((await client.send('GET', `${s429.url}/stats`)).status).toBe(200);
    expect(sleeps).toEqual([1100]);
    expect(client.counts()).toMatchObject({ throttled: 1, retried: 1 });
    await client.close();
  });

  it('a Retry-After beyond the budget gives up at once: HTTP_STATUS 429, never a wait past --timeout', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' });
      res.end('{"error":"rate limit exceeded"}');
    });
    const { client, sleeps } = testClient({ timeoutMs: 2_000 });
    const e = await rejection(client.send('GET', `${s.url}/stats`));
    expect(e.code).toBe('HTTP_STATUS');
    expect(e.details).toMatchObject({ status: 429, attempts: 1 });
    expect(sleeps).toEqual([]);
    expect(s.hits()).toBe(1);
    await client.close();
  });

  it('a budget of real time: attempts stop when the next wait would pass it', async () => {
    const s = await serve((_req, res) => json(res, 503, { error: 'down' }));
    const client = createHttpClient({ timeoutMs: 600, retryBaseDelayMs: 100, retryMaxDelayMs: 200 });
    const t0 = Date.now();
    const e = await rejection(client.send('GET', `${s.url}/stats`));
    const took = Date.now() - t0;
    expect(e.code).toBe('HTTP_STATUS');
    expect(took).toBeLessThan(600 + 250);
    expect(s.hits()).toBeGreaterThan(2);
    await client.close();
  });
});

describe('bodies', () => {
  it('non-JSON → HTTP_INVALID_JSON naming the URL and the content type', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const { client } = testClient({ retries: 1 });
    const e = await rejection(client.getJson(`${s.url}/tokens/info`, (j) => j));
    expect(e.code).toBe('HTTP_INVALID_JSON');
    // a 200 that is not JSON is a gateway's page, not the exchange's answer: retried first
    expect(s.hits()).toBe(2);
    expect(e.shortMessage).toMatch(
      new RegExp(`^${s.url}/tokens/info returned a body that is not JSON \\(Content-Type text/html\\)`),
    );
    await client.close();
  });

  it('invalid UTF-8 → HTTP_INVALID_JSON', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.from([0x7b, 0xff, 0x7d]));
    });
    const { client } = testClient();
    expect((await rejection(client.getJson(`${s.url}/x`, (j) => j))).code).toBe('HTTP_INVALID_JSON');
    await client.close();
  });

  it('an announced oversized body is refused before reading; a streamed one is aborted', async () => {
    const big = Buffer.alloc(5000, 0x20);
    const announced = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(big.length) });
      res.end(big);
    });
    const streamed = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
      for (let i = 0; i < 10; i++) res.write(big);
      res.end();
    });
    const { client } = testClient({ maxResponseBytes: 1000, retries: 2 });
    const a = await rejection(client.send('GET', `${announced.url}/x`));
    expect(a.code).toBe('HTTP_TOO_LARGE');
    expect(a.shortMessage).toMatch(/announced 5000 bytes, above the 1000-byte limit/);
    const b = await rejection(client.send('GET', `${streamed.url}/x`));
    expect(b.code).toBe('HTTP_TOO_LARGE');
    expect(streamed.hits()).toBe(1); // not retried
    await client.close();
  });

  it('gzip and deflate bodies are decoded; the digest is over the decoded bytes', async () => {
    const payload = JSON.stringify({ data: { pools: [], updated_at: '2026-11-01T12:00:00+00:00' } });
    const s = await serve((req, res) => {
      expect(req.headers['accept-encoding']).toMatch(/gzip/);
      const enc = req.url === '/gz' ? 'gzip' : 'deflate';
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': enc });
      res.end(enc === 'gzip' ? gzipSync(payload) : deflateSync(payload));
    });
    const { client } = testClient();
    for (const path of ['/gz', '/df']) {
      const { raw, value } = await client.getJson(`${s.url}${path}`, (j) => j);
      expect(value).toEqual(JSON.parse(payload));
      expect(Buffer.from(raw.body).toString()).toBe(payload);
      expect(raw.sha256).toBe(createHash('sha256').update(payload).digest('hex'));
    }
    await client.close();
  });

  it('a gzip bomb is cut at the decoded size limit', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const { client } = testClient({ maxResponseBytes: 1024 * 1024 });
    expect((await rejection(client.send('GET', `${s.url}/x`))).code).toBe('HTTP_TOO_LARGE');
    await client.close();
  });

  it('a body nested past the JSON bounds is cut at its breaking token, plain or gzip, and not retried', async () => {
    // 16 MB: 8 M `[` then 8 M `]` — the reader stops at byte 64, long before the end of the transfer
    const deep = Buffer.alloc(16_000_000, 0x5d);
    deep.fill(0x5b, 0, 8_000_000);
    const gz = gzipSync(deep);
    const s = await serve((req, res) => {
      const zipped = req.url === '/gz';
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(zipped ? { 'content-encoding': 'gzip' } : {}),
      });
      // written in 64 KiB pieces as a streaming server would; the client's abort ends the socket
      const body = zipped ? gz : deep;
      let at = 0;
      const more = (): void => {
        while (at < body.length && !res.destroyed) {
          const ok = res.write(body.subarray(at, at + 65_536));
          at += 65_536;
          if (!ok) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    const { client } = testClient({ maxResponseBytes: 32 * 1024 * 1024 });
    for (const path of ['/plain', '/gz']) {
      const before = s.hits();
      const t0 = Date.now();
      const e = await rejection(client.send('GET', `${s.url}${path}`));
      expect(e.code).toBe('HTTP_JSON_TOO_COMPLEX');
      expect(e.shortMessage).toMatch(/got deeper at byte 64 \(transfer aborted after [0-9]+ bytes\)/);
      const read = Number(/aborted after ([0-9]+) bytes/.exec(e.shortMessage)?.[1]);
      expect(read).toBeLessThan(2_000_000);
      expect(s.hits() - before).toBe(1);
      expect(Date.now() - t0).toBeLessThan(1_500);
    }
    await client.close();
  });

  it('a corrupt gzip body → HTTP_TRUNCATED', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('{"a":1}').subarray(0, 12));
    });
    const { client } = testClient({ retries: 0 });
    expect((await rejection(client.send('GET', `${s.url}/x`))).code).toBe('HTTP_TRUNCATED');
    await client.close();
  });
});

describe('credentials never appear in messages', () => {
  it('redactUrl strips user:password, every query value and the fragment (by rule, not by name)', () => {
    expect(redactUrl('https://alice:s3cret@api.example.com/v1/public?token=abc&x=1')).toBe(
      'https://api.example.com/v1/public?token=***&x=***',
    );
    expect(redactUrl('https://h/v1?client_secret=a&x-api-key=b&X-Amz-Signature=c&flag&empty=#token=d')).toBe(
      'https://h/v1?client_secret=***&x-api-key=***&X-Amz-Signature=***&flag&empty=***#***',
    );
    expect(redactUrl('https://h/v1#')).toBe('https://h/v1#');
    expect(redactUrl('not a url //bob:pw@host')).toBe('not a url //host');
    expect(redactUrl('bob:pw@host/v1?token=t0k&x=1#frag')).toBe('host/v1?token=***&x=***#***');
    expect(redactUrl('http://bob:pw@exa mple/v1?jwt=e.y.j')).toBe('http://exa mple/v1?jwt=***');
  });

  it("joinBaseUrl puts the path before the base query, and shows only the auditor's own values", () => {
    const base = parseBaseUrl('http://u:pw@h:8/v1/public/?api-key=K1#tok=F');
    const j = joinBaseUrl(base, '/aggregator/orderbook?ticker_id=A_B&depth=5');
    expect(j.request).toBe('http://u:pw@h:8/v1/public/aggregator/orderbook?ticker_id=A_B&depth=5&api-key=K1');
    expect(j.display).toBe('http://h:8/v1/public/aggregator/orderbook?ticker_id=A_B&depth=5&api-key=***');
    expect(joinBaseUrl(parseBaseUrl('http://h/v1'), '/stats').request).toBe('http://h/v1/stats');
  });

  it('credentials in the URL are sent as Basic authentication, never in the request line', async () => {
    let seen: { url: string | undefined; auth: string | undefined } | null = null;
    const s = await serve((req, res) => {
      seen = { url: req.url, auth: req.headers.authorization };
      json(res, 200, { ok: true });
    });
    const { client } = testClient({ retries: 0 });
    const r = await client.send('GET', s.url.replace('http://', 'http://al%40ice:p%3Ass@') + '/v1/x?y=1');
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${s.url}/v1/x?y=***`);
    expect(seen).toEqual({
      url: '/v1/x?y=1',
      auth: `Basic ${Buffer.from('al@ice:p:ss').toString('base64')}`,
    });
    await client.send('GET', `${s.url}/plain`);
    expect(seen).toEqual({ url: '/plain', auth: undefined });
  });

  it('connect failure and status errors on a URL with credentials', async () => {
    const port = await freePort();
    const { client } = testClient({ retries: 0 });
    const e = await rejection(client.send('GET', `http://alice:s3cret@127.0.0.1:${port}/x?api_key=k3y`));
    expect(e.message).not.toMatch(/s3cret|k3y|alice/);
    expect(JSON.stringify(e.details)).not.toMatch(/s3cret|k3y/);
    const s = await serve((_req, res) => json(res, 401, { error: 'no' }));
    const e2 = await rejection(
      client.getJson(s.url.replace('http://', 'http://alice:s3cret@') + '/x?token=k3y', (j) => j),
    );
    expect(e2.code).toBe('HTTP_STATUS');
    expect(e2.message).not.toMatch(/s3cret|k3y|alice/);
    await client.close();
  });
});

describe('proxy convention', () => {
  it('HTTP_PROXY routes requests through the proxy; NO_PROXY bypasses it', async () => {
    const target = await serve((_req, res) => json(res, 200, { via: 'target' }));
    let tunnels = 0;
    const sockets: Socket[] = [];
    // a minimal CONNECT proxy
    const proxy = createServer();
    proxy.on('connect', (req, clientSocket: Socket, head: Buffer) => {
      tunnels++;
      const [host, port] = String(req.url).split(':');
      const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(clientSocket);
        clientSocket.pipe(upstream);
      });
      sockets.push(upstream, clientSocket);
    });
    proxy.on('request', (req, res) => {
      // plain absolute-URI proxying
      tunnels++;
      const u = new URL(String(req.url));
      fetch(u)
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(await r.text());
        })
        .catch(() => res.destroy());
    });
    open.push(proxy);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const via = testClient({ env: { HTTP_PROXY: proxyUrl } }).client;
    expect((await via.getJson(`${target.url}/x`, (j) => j)).value).toEqual({ via: 'target' });
    expect(tunnels).toBe(1);
    await via.close();

    const bypass = testClient({ env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } }).client;
    expect((await bypass.getJson(`${target.url}/x`, (j) => j)).value).toEqual({ via: 'target' });
    expect(tunnels).toBe(1);
    await bypass.close();
    for (const s of sockets) s.destroy();
  });
});

describe('request validation', () => {
  it('a URL that is not absolute http(s) → HTTP_REQUEST_INVALID (credentials stripped)', async () => {
    const { client } = testClient();
    for (const bad of ['/relative/path', 'ftp://a:b@host/x', 'file:///etc/passwd', 'not a url']) {
      const e = await rejection(client.send('GET', bad));
      expect(e.code).toBe('HTTP_REQUEST_INVALID');
      expect(e.message).not.toContain(':b@');
    }
    expect(() => createHttpClient({ timeoutMs: 0 })).toThrow(HttpError);
    await client.close();
  });
});
