/**
 * The HTTP client of the auditor (undici): connect / headers / whole-request timeouts, retries
 * with exponential backoff for GETs only (idempotent), a maximum response size enforced while
 * streaming (also after gzip/deflate decoding, so a compression bomb is cut off), the
 * HTTP(S)_PROXY / NO_PROXY convention, and typed HttpErrors whose messages carry the URL with
 * credentials stripped. Every response is returned as a `RawResponse` (bytes + sha256) so the
 * mirror can store exactly what was received.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import { parseCacheHeaders, type RawResponse } from '../../core/wire/snapshot.js';
import { HttpError } from '../../errors/http.js';
import { splitUrlCredentials } from './base-url.js';
import { mapTransportError } from './map-error.js';
import { redactUrl } from './redact-url.js';
import { parseJsonBody, statusError } from './response.js';

export interface HttpClientOptions {
  /** whole-request deadline per attempt, also the headers and body inactivity timeout (default 15,000) */
  readonly timeoutMs?: number;
  /** TCP/TLS connect timeout (default min(timeoutMs, 10,000)) */
  readonly connectTimeoutMs?: number;
  /** decoded body size limit in bytes; the transfer is aborted beyond it (default 16 MiB) */
  readonly maxResponseBytes?: number;
  /** extra attempts for GETs after a connect error, timeout, truncation, 429 or 5xx (default 2) */
  readonly retries?: number;
  /** first backoff delay; doubles per attempt, with jitter (default 250) */
  readonly retryBaseDelayMs?: number;
  readonly retryMaxDelayMs?: number;
  /** environment for HTTP_PROXY / HTTPS_PROXY / NO_PROXY (default: none, i.e. direct) */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** a dispatcher to use instead of the one built from the options above (tests, custom TLS) */
  readonly dispatcher?: Dispatcher;
  readonly userAgent?: string;
  /** seams for tests */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

export interface HttpClient {
  /** Sends a request and returns the response whatever its status (after GET retries). */
  send(method: 'GET' | 'POST', url: string, body?: string): Promise<RawResponse>;
  /** GETs `url`, requires status 200, parses the body as JSON and validates it with `parse`. */
  getJson<T>(
    url: string,
    parse: (json: unknown) => T,
  ): Promise<{ readonly raw: RawResponse; readonly value: T }>;
  close(): Promise<void>;
}

const DEFAULT_MAX = 16 * 1024 * 1024;

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Drops a response body without reading it (the error its destruction emits is expected). */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function envProxy(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const v = env[name] ?? env[name.toLowerCase()];
  return v === undefined || v === '' ? undefined : v;
}

function buildDispatcher(o: HttpClientOptions, timeoutMs: number): Dispatcher {
  const connectTimeout = o.connectTimeoutMs ?? Math.min(timeoutMs, 10_000);
  const base = { connect: { timeout: connectTimeout }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const env = o.env ?? {};
  const httpProxy = envProxy(env, 'HTTP_PROXY');
  const httpsProxy = envProxy(env, 'HTTPS_PROXY');
  if (httpProxy === undefined && httpsProxy === undefined) return new Agent(base);
  const noProxy = envProxy(env, 'NO_PROXY');
  return new EnvHttpProxyAgent({
    ...base,
    ...(httpProxy === undefined ? {} : { httpProxy }),
    ...(httpsProxy === undefined ? {} : { httpsProxy }),
    ...(noProxy === undefined ? {} : { noProxy }),
  });
}

function headerString(v: string | string[] | undefined): string | null {
  if (v === undefined) return null;
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Seconds or HTTP-date of a Retry-After header, as ms (capped by the caller); null if absent/bad. */
function retryAfterMs(v: string | null, nowMs: number): number | null {
  if (v === null) return null;
  if (/^[0-9]{1,6}$/.test(v.trim())) return Number(v.trim()) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - nowMs);
}

function isRetryableError(e: unknown): boolean {
  return (
    e instanceof HttpError &&
    (e.code === 'HTTP_CONNECT_FAILED' || e.code === 'HTTP_TIMEOUT' || e.code === 'HTTP_TRUNCATED')
  );
}

/** Creates a client; call `close()` when done to release sockets. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new HttpError('HTTP_REQUEST_INVALID', `"timeoutMs" expected a positive integer, got ${timeoutMs}`);
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX;
  const retries = options.retries ?? 2;
  const baseDelay = options.retryBaseDelayMs ?? 250;
  const maxDelay = options.retryMaxDelayMs ?? 5_000;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const random = options.random ?? Math.random;
  const ownDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? buildDispatcher(options, timeoutMs);
  const userAgent = options.userAgent ?? 'reserve-audit/0.1';

  async function readBody(body: Readable, encoding: string, safeUrl: string): Promise<Uint8Array> {
    const chunks: Buffer[] = [];
    let total = 0;
    let tooLarge: HttpError | null = null;
    const sink = async (src: AsyncIterable<Buffer>): Promise<void> => {
      for await (const chunk of src) {
        total += chunk.length;
        if (total > maxBytes) {
          tooLarge = new HttpError(
            'HTTP_TOO_LARGE',
            `${safeUrl} sent more than ${maxBytes} bytes; transfer aborted`,
            {
              details: { url: safeUrl, maxBytes },
            },
          );
          throw tooLarge;
        }
        chunks.push(chunk);
      }
    };
    try {
      if (encoding === 'gzip' || encoding === 'x-gzip') await pipeline(body, createGunzip(), sink);
      else if (encoding === 'deflate') await pipeline(body, createInflate(), sink);
      else if (encoding === 'br') await pipeline(body, createBrotliDecompress(), sink);
      else if (encoding === '' || encoding === 'identity') await pipeline(body, sink);
      else {
        discard(body);
        throw new HttpError(
          'HTTP_INVALID_JSON',
          `${safeUrl} used an unsupported Content-Encoding ${JSON.stringify(encoding)}`,
        );
      }
    } catch (e) {
      // pipeline reports the sink's own error as an AbortError of the source: prefer the real cause
      throw tooLarge ?? e;
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  }

  async function once(
    method: 'GET' | 'POST',
    url: string,
    body: string | undefined,
  ): Promise<{ raw: RawResponse; retryAfter: number | null }> {
    const safeUrl = redactUrl(url);
    // credentials in the URL travel as Basic authentication, never in the request line
    const target = splitUrlCredentials(url);
    const startedAtMs = now();
    const ac = new AbortController();
    const deadline = new HttpError('HTTP_TIMEOUT', `${safeUrl} did not complete within ${timeoutMs} ms`, {
      details: { url: safeUrl, timeoutMs },
    });
    const timer = setTimeout(() => ac.abort(deadline), timeoutMs);
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(target.url, {
          method,
          dispatcher,
          signal: ac.signal,
          headers: {
            accept: 'application/json',
            'accept-encoding': 'gzip, deflate',
            'user-agent': userAgent,
            ...(target.authorization === null ? {} : { authorization: target.authorization }),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body }),
        });
      } catch (e) {
        throw ac.signal.aborted ? deadline : mapTransportError(e, safeUrl, 'connect');
      }
      const contentLength = headerString(res.headers['content-length']);
      if (contentLength !== null && /^[0-9]+$/.test(contentLength) && Number(contentLength) > maxBytes) {
        discard(res.body);
        throw new HttpError(
          'HTTP_TOO_LARGE',
          `${safeUrl} announced ${contentLength} bytes, above the ${maxBytes}-byte limit`,
          {
            details: { url: safeUrl, maxBytes },
          },
        );
      }
      const encoding = (headerString(res.headers['content-encoding']) ?? '').trim().toLowerCase();
      let bytes: Uint8Array;
      try {
        bytes = await readBody(res.body, encoding, safeUrl);
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw ac.signal.aborted ? deadline : mapTransportError(e, safeUrl, 'body');
      }
      const finished = now();
      const raw: RawResponse = {
        method,
        url: safeUrl,
        requestBody: body ?? null,
        status: res.statusCode,
        contentType: headerString(res.headers['content-type']),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        body: bytes,
        startedAtMs,
        durationMs: Math.max(0, finished - startedAtMs),
        ...parseCacheHeaders(headerString(res.headers['cache-control']), headerString(res.headers.age)),
        date: headerString(res.headers.date),
      };
      return { raw, retryAfter: retryAfterMs(headerString(res.headers['retry-after']), finished) };
    } finally {
      clearTimeout(timer);
    }
  }

  function backoff(attempt: number, retryAfter: number | null): number {
    const exp = Math.min(maxDelay, baseDelay * 2 ** attempt);
    const jittered = Math.round(exp * (0.5 + random() * 0.5));
    return retryAfter === null ? jittered : Math.min(maxDelay, Math.max(jittered, retryAfter));
  }

  async function send(method: 'GET' | 'POST', url: string, body?: string): Promise<RawResponse> {
    if (!isHttpUrl(url)) {
      throw new HttpError(
        'HTTP_REQUEST_INVALID',
        `"url" expected an absolute http(s) URL, got ${JSON.stringify(redactUrl(url))}`,
      );
    }
    const maxAttempts = method === 'GET' ? retries + 1 : 1;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= maxAttempts;
      try {
        const { raw, retryAfter } = await once(method, url, body);
        if (!last && (raw.status >= 500 || raw.status === 429)) {
          await sleep(backoff(attempt, retryAfter));
          continue;
        }
        return raw;
      } catch (e) {
        if (!last && isRetryableError(e)) {
          await sleep(backoff(attempt, null));
          continue;
        }
        throw e instanceof HttpError ? e : mapTransportError(e, redactUrl(url), 'connect');
      }
    }
  }

  async function getJson<T>(
    url: string,
    parse: (json: unknown) => T,
  ): Promise<{ raw: RawResponse; value: T }> {
    const raw = await send('GET', url);
    if (raw.status !== 200) throw statusError(raw);
    return { raw, value: parse(parseJsonBody(raw)) };
  }

  return {
    send,
    getJson,
    close: async () => {
      if (ownDispatcher) await dispatcher.close();
    },
  };
}
