/**
 * The fault-injecting proxy (src/server/fault-proxy.ts) and its plan (src/server/fault-spec.ts):
 * the spec's grammar (accepted items, typed OPTION_INVALID refusals), the shares a draw picks,
 * and each fault kind as a real HTTP client sees it through the proxy in front of the in-process
 * reference server (port 0, :memory:); plain forwarding keeps methods, bodies and query strings;
 * the proxy's counters. Deterministic: the faults come from a `choose` plan or a seeded draw.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ServerError } from '../../src/errors/server.js';
import { UsageError } from '../../src/errors/usage.js';
import { type FaultProxy, type FaultRequest, startFaultProxy } from '../../src/server/fault-proxy.js';
import {
  type Fault,
  type FaultRule,
  formatFaultSpec,
  parseFaultSpec,
  pickFault,
} from '../../src/server/fault-spec.js';
import { type RunningServer, startServer } from '../../src/server/serve.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { spawnCli, waitFor } from '../cli/helpers/spawn-cli.js';
import { runCliForTest } from '../helpers/run-cli.js';

function usageErrorOf(spec: string): UsageError {
  try {
    parseFaultSpec(spec);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`${JSON.stringify(spec)} was accepted`);
}

describe('parseFaultSpec', () => {
  it('reads KIND:SHARE[:PARAM] items with their default parameters', () => {
    expect(parseFaultSpec('429:0.25,503:0.15,reset:0.10')).toEqual([
      { kind: '429', share: 0.25, param: 1 },
      { kind: '503', share: 0.15, param: 0 },
      { kind: 'reset', share: 0.1, param: 0 },
    ]);
    expect(parseFaultSpec(' 500:.5 , 502:0.5 ')).toEqual([
      { kind: '500', share: 0.5, param: 0 },
      { kind: '502', share: 0.5, param: 0 },
    ]);
    expect(parseFaultSpec('429:0.5:3,delay:0.1:250,truncate:0.4')).toEqual([
      { kind: '429', share: 0.5, param: 3 },
      { kind: 'delay', share: 0.1, param: 250 },
      { kind: 'truncate', share: 0.4, param: 0 },
    ]);
    expect(parseFaultSpec('delay:1')).toEqual([{ kind: 'delay', share: 1, param: 2000 }]);
    expect(parseFaultSpec('reset:1.0')).toEqual([{ kind: 'reset', share: 1, param: 0 }]);
  });

  it('formats rules back into a spec it reads again', () => {
    for (const spec of ['429:0.25,503:0.15,reset:0.1', '429:0.5:3,delay:0.1:250,truncate:0.4', 'delay:1']) {
      expect(formatFaultSpec(parseFaultSpec(spec))).toBe(spec);
      expect(parseFaultSpec(formatFaultSpec(parseFaultSpec(spec)))).toEqual(parseFaultSpec(spec));
    }
    expect(formatFaultSpec(parseFaultSpec('429:0.25:1,delay:0.10:2000'))).toBe('429:0.25,delay:0.1');
  });

  it.each([
    ['', /expected at least one KIND:SHARE item, got ""/],
    [' , ', /expected at least one KIND:SHARE item, got " , "/],
    ['404:0.1', /expected a fault kind \(429, 500, 502, 503, reset, truncate, delay\), got "404:0\.1"/],
    ['RESET:0.1', /expected a fault kind .*, got "RESET:0\.1"/],
    ['429', /expected KIND:SHARE\[:PARAM\] with SHARE in \(0, 1\], got "429"/],
    ['429:', /expected KIND:SHARE\[:PARAM\] with SHARE in \(0, 1\], got "429:"/],
    ['429:1.5', /with SHARE in \(0, 1\], got "429:1\.5"/],
    ['429:-0.1', /with SHARE in \(0, 1\], got "429:-0\.1"/],
    ['429:1e-1', /with SHARE in \(0, 1\], got "429:1e-1"/],
    ['429:25%', /with SHARE in \(0, 1\], got "429:25%"/],
    ['429:0', /expected a share above 0, got "429:0"/],
    ['429:0.000', /expected a share above 0, got "429:0\.000"/],
    ['429:0.1:2:3', /with SHARE in \(0, 1\], got "429:0\.1:2:3"/],
    ['429:0.1:x', /expected a whole number as PARAM, got "429:0\.1:x"/],
    ['delay:0.1:-5', /expected a whole number as PARAM, got "delay:0\.1:-5"/],
    ['delay:0.1:', /expected a whole number as PARAM, got "delay:0\.1:"/],
    ['reset:0.1:5', /expected no PARAM for reset, got "reset:0\.1:5"/],
    ['503:0.1:2', /expected no PARAM for 503, got "503:0\.1:2"/],
    ['429:0.5,503:0.6', /expected shares that add up to at most 1, got "429:0\.5,503:0\.6"/],
  ])('refuses %j with a typed OPTION_INVALID error', (spec, message) => {
    const e = usageErrorOf(spec);
    expect(e.code).toBe('OPTION_INVALID');
    expect(e.shortMessage).toMatch(/^"--faults" expected /);
    expect(e.shortMessage).toMatch(message);
  });

  it('names the option it parses', () => {
    expect(() => parseFaultSpec('nope:1', 'fault-plan')).toThrow(/"--fault-plan" expected a fault kind/);
  });
});

describe('pickFault', () => {
  const rules = parseFaultSpec('429:0.25,503:0.15,reset:0.10');

  it('gives each kind its share of [0, 1), in order, and no fault for the rest', () => {
    const at = (u: number): string => pickFault(rules, u)?.kind ?? 'none';
    expect([0, 0.2499, 0.25, 0.3999, 0.4, 0.4999, 0.5, 0.9999].map(at)).toEqual([
      '429',
      '429',
      '503',
      '503',
      'reset',
      'reset',
      'none',
      'none',
    ]);
    expect(pickFault(rules, 0)).toEqual({ kind: '429', param: 1 });
    expect(pickFault(parseFaultSpec('delay:1:30'), 0.999)).toEqual({ kind: 'delay', param: 30 });
  });

  it('draws the shares it was given (20,000 seeded draws)', () => {
    const rng = createSeededRng('pick-fault');
    const n = 20_000;
    const count = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const k = pickFault(rules, rng.float())?.kind ?? 'none';
      count.set(k, (count.get(k) ?? 0) + 1);
    }
    for (const [k, share] of [
      ['429', 0.25],
      ['503', 0.15],
      ['reset', 0.1],
      ['none', 0.5],
    ] as const)
      expect(Math.abs((count.get(k) ?? 0) / n - share)).toBeLessThan(0.015);
  });
});

describe('the fault proxy in front of the reference server', () => {
  let server: RunningServer;
  let dispatcher: Agent;
  let proxy: FaultProxy | undefined;
  let plan: (r: FaultRequest) => Fault | null = () => null;
  let seen: FaultRequest[] = [];
  let cc: { id: string; admin: string };
  let usdcx: { id: string; admin: string };

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: ':memory:',
      contractIdVersion: 'v12',
      seed: 'fault-proxy',
      simulation: false,
      logger: { info: () => {}, error: () => {} },
    });
    dispatcher = new Agent();
    const pool = server.exchange.pools().find((p) => p.tokenB.id === 'USDCx' || p.tokenA.id === 'USDCx');
    if (pool === undefined) throw new Error('no USDCx pool in the seed market');
    cc = server.exchange.cc();
    usdcx = pool.tokenA.id === 'USDCx' ? pool.tokenA : pool.tokenB;
  });
  afterAll(async () => {
    await dispatcher.close();
    await server.close();
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    plan = () => null;
    seen = [];
  });

  async function startProxy(): Promise<FaultProxy> {
    proxy = await startFaultProxy({
      target: server.url,
      choose: (r) => {
        seen.push(r);
        return plan(r);
      },
    });
    return proxy;
  }

  async function get(
    url: string,
    init: { method?: 'GET' | 'POST'; body?: string } = {},
  ): Promise<{ status: number; headers: Record<string, unknown>; text: string; ms: number }> {
    const t0 = performance.now();
    const r = await request(url, {
      dispatcher,
      method: init.method ?? 'GET',
      ...(init.body === undefined
        ? {}
        : { body: init.body, headers: { 'content-type': 'application/json' } }),
    });
    const text = await r.body.text();
    return { status: r.statusCode, headers: r.headers, text, ms: performance.now() - t0 };
  }

  const quoteBody = (sellAmount: string): string =>
    JSON.stringify({
      sellAmount,
      sellInstrumentId: cc.id,
      sellInstrumentAdmin: cc.admin,
      buyInstrumentId: usdcx.id,
      buyInstrumentAdmin: usdcx.admin,
      affiliateCode: 'fault-proxy-test',
    });

  it('forwards GET unchanged: same status, same body, Cache-Control kept', async () => {
    const p = await startProxy();
    const direct = await get(`${server.url}/v1/public/pools/proof`);
    const via = await get(`${p.url}/v1/public/pools/proof`);
    expect(via.status).toBe(200);
    expect(via.text).toBe(direct.text); // one 5-second cache window: byte-identical
    expect(via.headers['cache-control']).toBe(direct.headers['cache-control']);
    expect(via.headers['content-length']).toBe(String(Buffer.byteLength(via.text)));
    expect(seen.map((r) => [r.method, r.path, r.index])).toEqual([['GET', '/v1/public/pools/proof', 0]]);
  });

  it('forwards POST with its body (/connect/quote), answers and rule refusals alike', async () => {
    const p = await startProxy();
    const direct = await get(`${server.url}/v1/public/connect/quote?include_proof=true`, {
      method: 'POST',
      body: quoteBody('100'),
    });
    const via = await get(`${p.url}/v1/public/connect/quote?include_proof=true`, {
      method: 'POST',
      body: quoteBody('100'),
    });
    expect(direct.status).toBe(200);
    expect([via.status, via.text]).toEqual([200, direct.text]);
    expect(
      (JSON.parse(via.text) as { pools: { created_event_blob?: string }[] }).pools[0]?.created_event_blob,
    ).toBeTypeOf('string');
    const small = await get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: quoteBody('1') });
    expect([small.status, JSON.parse(small.text)]).toEqual([
      400,
      { error: 'minimum ticket size is 50 CC, or equivalent in other instruments' },
    ]);
    const missing = await get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: '{}' });
    expect([missing.status, JSON.parse(missing.text)]).toEqual([400, { error: 'missing sellAmount' }]);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/public/connect/quote?include_proof=true',
      'POST /v1/public/connect/quote',
      'POST /v1/public/connect/quote',
    ]);
  });

  it('keeps query strings', async () => {
    const p = await startProxy();
    const path = '/v1/public/aggregator/orderbook?ticker_id=CC_USDCX&depth=4';
    const via = JSON.parse((await get(`${p.url}${path}`)).text) as { ticker_id: string; bids: unknown[] };
    expect(via.ticker_id).toBe('CC_USDCX');
    expect(via.bids).toHaveLength(2);
    const bad = await get(`${p.url}/v1/public/aggregator/orderbook?ticker_id=CC_USDCX&depth=3`);
    expect([bad.status, JSON.parse(bad.text)]).toEqual([
      400,
      { error: '"depth" expected an even integer from 2 to 200, got "3"' },
    ]);
    const vol = await get(
      `${p.url}/v1/public/volume?start_time=2026-11-21T00:00:00Z&end_time=2026-11-22T00:00:00%2B00:00`,
    );
    expect((JSON.parse(vol.text) as { data: { end_time: string } }).data.end_time).toBe(
      '2026-11-22T00:00:00.000+00:00',
    );
    expect(seen.map((r) => r.path)).toEqual([
      path,
      '/v1/public/aggregator/orderbook?ticker_id=CC_USDCX&depth=3',
      '/v1/public/volume?start_time=2026-11-21T00:00:00Z&end_time=2026-11-22T00:00:00%2B00:00',
    ]);
  });

  it('429: JSON body and Retry-After (default 1 s, or PARAM)', async () => {
    const p = await startProxy();
    plan = (r) => ({ kind: '429', param: r.index === 0 ? 1 : 7 });
    const a = await get(`${p.url}/v1/public/pools/proof`);
    expect([a.status, a.headers['retry-after'], a.headers['content-type'], JSON.parse(a.text)]).toEqual([
      429,
      '1',
      'application/json',
      { error: 'rate limit exceeded' },
    ]);
    expect(a.headers['content-length']).toBe(String(a.text.length));
    const b = await get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: quoteBody('100') });
    expect([b.status, b.headers['retry-after']]).toEqual([429, '7']);
  });

  it('refuses a request body over 1 MiB itself (413), before any fault is drawn', async () => {
    const p = await startProxy();
    plan = () => ({ kind: '503', param: 0 });
    const r = await get(`${p.url}/v1/public/connect/quote`, {
      method: 'POST',
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect([r.status, JSON.parse(r.text)]).toEqual([413, { error: 'request body too large' }]);
    expect(seen).toEqual([]);
    expect(p.stats()).toEqual({ requests: 1, faults: {}, upstreamErrors: 0 });
  });

  it('500: JSON body; 502 and 503: an HTML page as a gateway sends it', async () => {
    const p = await startProxy();
    const kinds = ['500', '502', '503'] as const;
    plan = (r) => ({ kind: kinds[r.index] ?? '500', param: 0 });
    const e500 = await get(`${p.url}/v1/public/stats`);
    expect([e500.status, e500.headers['content-type'], JSON.parse(e500.text)]).toEqual([
      500,
      'application/json',
      { error: 'internal server error' },
    ]);
    const e502 = await get(`${p.url}/v1/public/stats`);
    expect([e502.status, e502.headers['content-type']]).toEqual([502, 'text/html']);
    expect(e502.text).toMatch(/<h1>502 Bad Gateway<\/h1>/);
    const e503 = await get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: quoteBody('100') });
    expect([e503.status, e503.headers['content-type']]).toEqual([503, 'text/html']);
    expect(e503.text).toMatch(/<h1>503 Service Temporarily Unavailable<\/h1>/);
    expect(() => JSON.parse(e503.text)).toThrow();
  });

  it('reset: the connection closes without an answer (GET and POST)', async () => {
    const p = await startProxy();
    plan = () => ({ kind: 'reset', param: 0 });
    await expect(get(`${p.url}/v1/public/pools/proof`)).rejects.toThrow(
      /other side closed|ECONNRESET|socket/i,
    );
    await expect(
      get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: quoteBody('100') }),
    ).rejects.toThrow(/other side closed|ECONNRESET|socket/i);
    // the next request, on a fresh connection, goes through
    plan = () => null;
    expect((await get(`${p.url}/v1/public/pools/proof`)).status).toBe(200);
  });

  it('truncate: the real headers, half the body, then the close (a client error)', async () => {
    const p = await startProxy();
    const full = await get(`${server.url}/v1/public/pools/proof`);
    plan = () => ({ kind: 'truncate', param: 0 });
    const r = await request(`${p.url}/v1/public/pools/proof`, { dispatcher });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(full.text)));
    const got: Buffer[] = [];
    const read = (async () => {
      for await (const c of r.body) got.push(c as Buffer);
    })();
    await expect(read).rejects.toThrow(/other side closed|content-length|terminated|socket/i);
    const received = Buffer.concat(got).length;
    expect(received).toBeLessThan(Buffer.byteLength(full.text));
    expect(received).toBeLessThanOrEqual(Math.floor(Buffer.byteLength(full.text) / 2));
    // fetch sees it too
    await expect(fetch(`${p.url}/v1/public/pools/proof`).then((res) => res.text())).rejects.toThrow();
  });

  it('delay: the real answer, after at least PARAM ms', async () => {
    const p = await startProxy();
    plan = (r) => (r.index === 0 ? { kind: 'delay', param: 300 } : null);
    const late = await get(`${p.url}/v1/public/connect/quote`, { method: 'POST', body: quoteBody('100') });
    expect(late.status).toBe(200);
    expect(late.ms).toBeGreaterThanOrEqual(300);
    expect(JSON.parse(late.text)).toHaveProperty('returned');
    const quick = await get(`${p.url}/v1/public/pools/info`);
    expect(quick.status).toBe(200);
    expect(quick.ms).toBeLessThan(300);
  });

  it('counts requests and faults by kind', async () => {
    const p = await startProxy();
    const script: (Fault | null)[] = [
      { kind: '429', param: 1 },
      null,
      { kind: '503', param: 0 },
      { kind: '429', param: 1 },
      { kind: 'reset', param: 0 },
      { kind: 'delay', param: 10 },
      { kind: 'truncate', param: 0 },
      null,
    ];
    plan = (r) => script[r.index] ?? null;
    for (let i = 0; i < script.length; i++) await get(`${p.url}/v1/public/pools/info`).catch(() => undefined);
    expect(p.stats()).toEqual({
      requests: 8,
      faults: { '429': 2, '503': 1, reset: 1, delay: 1, truncate: 1 },
      upstreamErrors: 0,
    });
  });

  it('draws faults by share from `random` when there is no plan', async () => {
    const rules: FaultRule[] = parseFaultSpec('429:0.25,503:0.25');
    const rng = createSeededRng('proxy-draws');
    const draws: number[] = [];
    proxy = await startFaultProxy({
      target: server.url,
      rules,
      random: () => {
        const u = rng.float();
        draws.push(u);
        return u;
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await get(`${proxy.url}/v1/public/swap/info`)).status);
    const expected = draws.map(
      (u) => ({ '429': 429, '503': 503 })[pickFault(rules, u)?.kind as '429'] ?? 200,
    );
    expect(statuses).toEqual(expected);
    const s = proxy.stats();
    expect(s.requests).toBe(40);
    expect((s.faults['429'] ?? 0) + (s.faults['503'] ?? 0)).toBe(statuses.filter((x) => x !== 200).length);
  });

  it('tunnels websocket handshakes to the target (no faults)', async () => {
    const p = await startProxy();
    plan = () => ({ kind: 'reset', param: 0 });
    const ws = new WebSocket(`${p.url.replace('http', 'ws')}/v1/ws/public`);
    const frame = await new Promise<unknown>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ op: 'ping' })));
      ws.on('message', (d) => resolve(JSON.parse(String(d))));
      ws.on('error', reject);
    });
    ws.close();
    expect(frame).toEqual({ op: 'pong' });
    expect(p.stats().requests).toBe(0);
  });

  it('answers 502 itself when the target does not answer, and counts it apart from faults', async () => {
    const spare = createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((r) => spare.close(() => r()));
    proxy = await startFaultProxy({ target: `http://127.0.0.1:${port}` });
    const r = await get(`${proxy.url}/v1/public/pools/info`);
    expect([r.status, r.headers['content-type']]).toEqual([502, 'text/html']);
    expect(proxy.stats()).toEqual({ requests: 1, faults: {}, upstreamErrors: 1 });
  });

  it('refuses a port it cannot bind (ServerError SERVER_OPTION_INVALID, the cause kept)', async () => {
    const p = await startProxy();
    const port = Number(new URL(p.url).port);
    const e = await startFaultProxy({ target: server.url, port }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect((e as ServerError).code).toBe('SERVER_OPTION_INVALID');
    expect((e as ServerError).shortMessage).toBe(
      `"port" expected a port free to bind on 127.0.0.1, got ${port} (EADDRINUSE)`,
    );
  });

  it.each([
    'https://127.0.0.1:1',
    'http://127.0.0.1:1/v1/public',
    'http://127.0.0.1:1/?x=1',
    '127.0.0.1:1',
    'not a url',
  ])('refuses the target %j (ServerError SERVER_OPTION_INVALID)', async (target) => {
    const e = await startFaultProxy({ target }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect((e as ServerError).code).toBe('SERVER_OPTION_INVALID');
    expect((e as ServerError).shortMessage).toMatch(
      /^"target" expected an http:\/\/ origin without a path, got /,
    );
  });
});

describe('reserve-audit serve --faults', () => {
  it('serves through the proxy on --port, draws reproducibly with --fault-seed, stops on SIGTERM', async () => {
    const run = spawnCli([
      'serve',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      'cli-faults',
      '--faults',
      '429:0.30:2,503:0.20,delay:0.10:50',
      '--fault-seed',
      'reproducible',
    ]);
    const { child, output } = run;
    const exited = run.exited.then((e) => e.code);
    try {
      await waitFor(() => /injecting faults .*\n/.test(output.stderr), 20_000, 'the listening lines');
      const stderr = output.stderr;
      const origin = /serving (http:\/\/127\.0\.0\.1:\d+)\/v1\/public \(websocket ws:/.exec(
        stderr,
      )?.[1] as string;
      const inner =
        /injecting faults 429:0\.3:2,503:0\.2,delay:0\.1:50 \(seed "reproducible"\) in front of the server at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(
          stderr,
        )?.[1];
      expect(inner).toBeDefined();
      expect(inner).not.toBe(origin);
      // the same draws as the seeded source gives: request i gets pickFault(rules, float #i)
      const rules = parseFaultSpec('429:0.30:2,503:0.20,delay:0.10:50');
      const rng = createSeededRng('reproducible');
      const expected: string[] = [];
      const got: string[] = [];
      for (let i = 0; i < 30; i++) {
        const f = pickFault(rules, rng.float());
        expected.push(f?.kind === '429' ? '429 2' : f?.kind === '503' ? '503' : '200');
        const res = await fetch(`${origin}/v1/public/swap/info`);
        await res.arrayBuffer();
        got.push(res.status === 429 ? `429 ${res.headers.get('retry-after')}` : String(res.status));
      }
      expect(got).toEqual(expected);
      expect(new Set(got)).toEqual(new Set(['200', '429 2', '503']));
      // the server itself, behind the proxy, answers every request
      expect((await fetch(`${inner}/v1/public/swap/info`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output.stderr).toMatch(/stopped/);
  }, 40_000);

  it.each([
    [['serve', '--faults', '404:0.1'], /"--faults" expected a fault kind .*, got "404:0\.1"/],
    [['serve', '--faults', '429:0.6,503:0.6'], /"--faults" expected shares that add up to at most 1/],
    [['serve', '--faults', ''], /"--faults" expected at least one KIND:SHARE item, got ""/],
    [['serve', '--fault-seed', 'x'], /"--fault-seed" expected --faults as well, got "x" alone/],
  ])('rejects %j with exit code 2', async (argv, message) => {
    const r = await runCliForTest(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
