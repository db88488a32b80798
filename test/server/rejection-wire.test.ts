/**
 * The exact bytes of every kind of rejection the reference server sends (api-decisions §8): status,
 * every response header but the date and the keep-alive bookkeeping, in order, and the body
 * `{"error":"<message>"}`. Pins the wire format of RequestRejectedError answers (404, 405, 400,
 * 413, 429) and of the 204 preflight, so a change in how rejections are built cannot change it.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeExchange } from './helpers/fake-exchange.js';
import { startTestServer, type TestServer } from './helpers/start.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: string;
}

/** One request on its own connection; headers as `name: value` lines, Date and Keep-Alive left out. */
function exchange(
  origin: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] ?? '';
            if (/^(date|keep-alive)$/i.test(name)) continue;
            lines.push(`${name}: ${res.rawHeaders[i + 1] ?? ''}`);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: lines,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = 'Content-Type: application/json; charset=utf-8';
const CORS = 'Access-Control-Allow-Origin: *';
const EXPOSE = 'Access-Control-Expose-Headers: Retry-After, Age';
const NO_STORE = 'Cache-Control: no-store';

describe('rejections on the wire', () => {
  let srv: TestServer;
  let limited: TestServer;

  beforeAll(async () => {
    srv = await startTestServer({ exchange: createFakeExchange() });
    limited = await startTestServer({
      exchange: createFakeExchange(),
      rateLimit: { perSecond: 0.001, burst: 1 },
    });
  });

  afterAll(async () => {
    await srv.close();
    await limited.close();
  });

  it('404 for an unknown path: CORS only under the public prefix, no-store', async () => {
    expect(await exchange(srv.origin, 'GET', '/v1/public/nope')).toEqual({
      status: 404,
      headers: [JSON_TYPE, 'Content-Length: 21', CORS, EXPOSE, NO_STORE, 'Connection: close'],
      body: '{"error":"not found"}',
    });
    expect(await exchange(srv.origin, 'GET', '/elsewhere')).toEqual({
      status: 404,
      headers: [JSON_TYPE, 'Content-Length: 21', NO_STORE, 'Connection: close'],
      body: '{"error":"not found"}',
    });
  });

  it('405 for a known path with another method, with Allow', async () => {
    expect(await exchange(srv.origin, 'DELETE', '/v1/public/pools/state')).toEqual({
      status: 405,
      headers: [
        JSON_TYPE,
        'Content-Length: 30',
        CORS,
        EXPOSE,
        NO_STORE,
        'Allow: GET, OPTIONS',
        'Connection: close',
      ],
      body: '{"error":"method not allowed"}',
    });
  });

  it('204 for a CORS preflight', async () => {
    expect(await exchange(srv.origin, 'OPTIONS', '/v1/public/connect/quote')).toEqual({
      status: 204,
      headers: [
        CORS,
        EXPOSE,
        'Access-Control-Allow-Methods: POST, OPTIONS',
        'Access-Control-Allow-Headers: Content-Type',
        'Access-Control-Max-Age: 600',
        'Allow: POST, OPTIONS',
        'Content-Length: 0',
        'Connection: close',
      ],
      body: '',
    });
  });

  it('400 thrown by a route: the spec message, no-store', async () => {
    expect(await exchange(srv.origin, 'GET', '/v1/public/aggregator/orderbook')).toEqual({
      status: 400,
      headers: [JSON_TYPE, 'Content-Length: 29', CORS, EXPOSE, NO_STORE, 'Connection: close'],
      body: '{"error":"missing ticker_id"}',
    });
    expect(await exchange(srv.origin, 'POST', '/v1/public/connect/quote', '[1]')).toEqual({
      status: 400,
      headers: [JSON_TYPE, 'Content-Length: 29', CORS, EXPOSE, NO_STORE, 'Connection: close'],
      body: '{"error":"invalid JSON body"}',
    });
  });

  it('404 thrown by a route (a resource, not a path) is answered like a 400', async () => {
    expect(await exchange(srv.origin, 'GET', '/v1/public/aggregator/orderbook?ticker_id=NO_PE')).toEqual({
      status: 404,
      headers: [JSON_TYPE, 'Content-Length: 29', CORS, EXPOSE, NO_STORE, 'Connection: close'],
      body: '{"error":"unknown ticker_id"}',
    });
  });

  it('413 for a body over 64 KiB: the connection is closed after the answer', async () => {
    const big = 'x'.repeat(64 * 1024 + 1);
    expect(await exchange(srv.origin, 'POST', '/v1/public/connect/quote', big)).toEqual({
      status: 413,
      headers: [JSON_TYPE, 'Content-Length: 34', CORS, EXPOSE, NO_STORE, 'Connection: close'],
      body: '{"error":"request body too large"}',
    });
  });

  it('429 over the rate limit, with Retry-After and no-store', async () => {
    expect((await exchange(limited.origin, 'GET', '/v1/public/swap/info')).status).toBe(200);
    const r = await exchange(limited.origin, 'GET', '/v1/public/swap/info');
    expect(r.status).toBe(429);
    expect(r.body).toBe('{"error":"rate limit exceeded"}');
    expect(r.headers.map((h) => h.replace(/^Retry-After: \d+$/, 'Retry-After: N'))).toEqual([
      JSON_TYPE,
      'Content-Length: 31',
      CORS,
      EXPOSE,
      NO_STORE,
      'Retry-After: N',
      'Connection: close',
    ]);
  });
});
