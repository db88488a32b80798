/**
 * fetchSnapshot (src/io/http/fetch-snapshot.ts) against the reference server in-process on
 * 127.0.0.1:0: fetch order (proof, state, proof), the volume add-up windows, probe quotes and
 * their expected outcomes, and per-section failure (one broken endpoint does not sink the rest).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiTimestampMs } from '../../src/core/wire/index.js';
import { PROBE_AFFILIATE_CODE } from '../../src/core/wire/probe-plan.js';
import { HttpError } from '../../src/errors/http.js';
import { fetchSnapshot } from '../../src/io/http/index.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

let server: ReferenceServer;
let mode: 'normal' | 'broken-stats' | 'bad-state' | 'bad-state-entry' = 'normal';

function intercept(req: IncomingMessage, res: ServerResponse): boolean {
  if (mode === 'broken-stats' && req.url?.endsWith('/stats')) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":"internal error"}');
    return true;
  }
  if (mode === 'bad-state' && req.url?.endsWith('/pools/state')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"updated_at":"2026-11-01T12:00:00+00:00","pools":7}}');
    return true;
  }
  if (mode === 'bad-state-entry' && req.url?.endsWith('/pools/state')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"updated_at":"2026-11-01T12:00:00+00:00","pools":[{"pool_id":7}]}}');
    return true;
  }
  return false;
}

beforeAll(async () => {
  server = await startReferenceServer({ prefillMs: 2 * 3600_000, swapsPerMinute: 1, intercept });
});

afterAll(async () => {
  await server?.close();
});

describe('fetchSnapshot against the reference server', () => {
  it('fetches proof, state, proof first, then everything else; all sections parse', async () => {
    mode = 'normal';
    const steps: string[] = [];
    const snap = await fetchSnapshot({
      baseUrl: server.base,
      now: () => server.clock.nowMs(),
      onProgress: (p) => steps.push(p.step),
      parseOptions: { unknownKeys: 'reject' },
    });
    expect(snap.raw.slice(0, 3).map((r) => new URL(r.url).pathname)).toEqual([
      '/v1/public/pools/proof',
      '/v1/public/pools/state',
      '/v1/public/pools/proof',
    ]);
    expect(steps.slice(0, 3)).toEqual(['/pools/proof', '/pools/state', '/pools/proof']);
    for (const k of [
      'tokens',
      'swapInfo',
      'markets',
      'exchangeInfo',
      'poolsInfo',
      'proofsBefore',
      'poolsState',
      'proofsAfter',
      'stats',
      'volume',
      'aggregatorPairs',
      'aggregatorTickers',
      'orderbooks',
    ] as const) {
      expect(snap[k].ok, k).toBe(true);
    }
    expect(snap.probeQuotes).toBeNull();
    if (!snap.aggregatorPairs.ok || !snap.orderbooks.ok || !snap.volume.ok) throw new Error('unreachable');
    expect(snap.orderbooks.value.map((o) => o.tickerId)).toEqual(
      snap.aggregatorPairs.value.map((p) => p.ticker_id),
    );
    // 3 + tokens, swap, markets, exchange, pools info, stats + 4 volume + 2 windows bounding /stats
    // + pairs, tickers + one book per pair + the closing /pools/proof
    expect(snap.raw).toHaveLength(3 + 6 + 4 + 2 + 2 + snap.aggregatorPairs.value.length + 1);
    expect(new URL(snap.raw[snap.raw.length - 1]?.url ?? '').pathname).toBe('/v1/public/pools/proof');
    expect(snap.volume.value.statsOuter).toBeDefined();
    expect(snap.volume.value.statsInner).toBeDefined();
    expect(snap.proofsLater?.[0]?.ok).toBe(true);
    for (const r of snap.raw) {
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.status).toBe(200);
    }
  });

  it('records cache headers per response; order books keep pair order although fetched concurrently', async () => {
    mode = 'normal';
    const snap = await fetchSnapshot({ baseUrl: server.base, now: () => server.clock.nowMs() });
    const byPath = (p: string) => snap.raw.filter((r) => new URL(r.url).pathname === `/v1/public${p}`);
    const tickers = byPath('/aggregator/tickers')[0];
    expect(tickers?.maxAgeSeconds).toBe(10);
    expect(tickers?.ageSeconds).toEqual(expect.any(Number));
    expect(tickers?.date).toEqual(expect.any(String));
    expect(byPath('/pools/state')[0]?.maxAgeSeconds).toBe(5);
    const books = byPath('/aggregator/orderbook');
    expect(snap.aggregatorPairs.ok && snap.orderbooks.ok).toBe(true);
    if (!snap.aggregatorPairs.ok || !snap.orderbooks.ok) return;
    const ids = snap.aggregatorPairs.value.map((p) => p.ticker_id);
    expect(snap.orderbooks.value.map((o) => o.tickerId)).toEqual(ids);
    expect(books.map((r) => new URL(r.url).searchParams.get('ticker_id'))).toEqual(ids);
  });

  it('the volume windows are a closed window and its two consecutive halves', async () => {
    mode = 'normal';
    const snap = await fetchSnapshot({ baseUrl: server.base, now: () => server.clock.nowMs() });
    if (!snap.volume.ok) throw new Error(snap.volume.reason);
    const { whole, firstHalf, secondHalf, default: def } = snap.volume.value;
    expect(def.startTime).toBeNull();
    const ms = (s: string | null): number | null => (s === null ? null : parseApiTimestampMs(s));
    expect(ms(firstHalf.startTime)).toBe(ms(whole.startTime));
    expect(ms(firstHalf.endTime)).toBe(ms(secondHalf.startTime));
    expect(ms(secondHalf.endTime)).toBe(ms(whole.endTime));
    expect((ms(whole.endTime) ?? 0) - (ms(whole.startTime) ?? 0)).toBe(24 * 3600_000);
    expect(ms(whole.endTime)).toBeLessThanOrEqual(server.clock.nowMs() - 60_000);
    // the server echoes the requested window
    expect(parseApiTimestampMs(whole.response.data.start_time)).toBe(ms(whole.startTime));
    expect(parseApiTimestampMs(secondHalf.response.data.end_time)).toBe(ms(secondHalf.endTime));
  });

  it('probe quotes: accepted sizes are quoted, below-minimum and MOD are rejected, the memo truncates the code', async () => {
    mode = 'normal';
    const snap = await fetchSnapshot({
      baseUrl: server.base,
      probeQuotes: true,
      now: () => server.clock.nowMs(),
    });
    if (snap.probeQuotes === null || !snap.probeQuotes.ok) throw new Error('no probes');
    const probes = snap.probeQuotes.value;
    expect(new Set(probes.map((p) => p.kind))).toEqual(
      new Set(['minimum', 'mid', 'affiliate', 'below-minimum', 'mod']),
    );
    for (const p of probes) {
      if (p.expect === 'accept') {
        expect(p.status, `${p.kind} ${p.poolId}`).toBe(200);
        expect(p.quote?.sent.sell_amount).toBe(p.request.sellAmount);
      } else {
        expect(p.status, `${p.kind} ${p.poolId}`).toBe(400);
        expect(p.quote).toBeNull();
        expect(p.error).toMatch(p.kind === 'mod' ? /MOD is not supported/ : /minimum ticket size/);
      }
      expect(p.shapeError).toBeNull();
    }
    const aff = probes.find((p) => p.kind === 'affiliate');
    expect(aff?.quote?.memo).toBe(`${aff?.request.buyInstrumentId} ref:${PROBE_AFFILIATE_CODE.slice(0, 20)}`);
    const posts = snap.raw.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(probes.length);
    expect(JSON.parse(posts[0]?.requestBody ?? '{}')).toEqual(probes[0]?.request);
  });

  it('a failing endpoint fails only its section', async () => {
    mode = 'broken-stats';
    try {
      const snap = await fetchSnapshot({
        baseUrl: server.base,
        now: () => server.clock.nowMs(),
        clientOptions: { retries: 1, retryBaseDelayMs: 1 },
      });
      expect(snap.stats).toMatchObject({ ok: false, code: 'HTTP_STATUS' });
      if (snap.stats.ok) throw new Error('unreachable');
      expect(snap.stats.reason).toMatch(
        /\/stats answered status 500: "internal error" \(no usable answer in 2 attempts over [0-9.]+ s: 500 ×2\)$/,
      );
      expect(snap.poolsState.ok && snap.proofsAfter.ok && snap.volume.ok).toBe(true);
      // a failed attempt is not an answer of the exchange: nothing of it is recorded
      expect(snap.raw.filter((r) => r.url.endsWith('/stats'))).toHaveLength(0);
    } finally {
      mode = 'normal';
    }
  });

  it('a malformed section is recorded with its precise shape error', async () => {
    mode = 'bad-state';
    try {
      const snap = await fetchSnapshot({ baseUrl: server.base, now: () => server.clock.nowMs() });
      expect(snap.poolsState).toEqual({
        ok: false,
        code: 'API_SHAPE_INVALID',
        reason: 'data.pools expected an array, got 7',
      });
      expect(snap.proofsBefore.ok).toBe(true);
    } finally {
      mode = 'normal';
    }
  });

  it('a malformed pool entry is set aside; the section itself is read', async () => {
    mode = 'bad-state-entry';
    try {
      const snap = await fetchSnapshot({ baseUrl: server.base, now: () => server.clock.nowMs() });
      expect(snap.poolsState.ok).toBe(true);
      if (!snap.poolsState.ok) return;
      expect(snap.poolsState.value.data.pools).toEqual([]);
      expect(snap.poolsState.value.malformed).toEqual([
        {
          index: 0,
          poolId: null,
          path: 'data.pools[0].pool_id',
          expected: 'a string',
          message: 'data.pools[0].pool_id expected a string, got 7',
        },
      ]);
    } finally {
      mode = 'normal';
    }
  });

  it('an unreachable base URL fails the whole snapshot with HTTP_CONNECT_FAILED', async () => {
    const port = new URL(server.base).port;
    const dead = server.base.replace(`:${port}`, ':1');
    const e = await fetchSnapshot({ baseUrl: dead, clientOptions: { retries: 0 } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).code).toBe('HTTP_CONNECT_FAILED');
  });
});
