/**
 * The HTTP client of the auditor (undici): connect / headers / whole-request timeouts; pacing
 * (src/io/http/pacer.ts: a request rate and a number in flight, slowed by 429s); retries of every
 * read (GETs, and the POSTs a caller marks as reads: quotes) after a transport failure — a connect
 * error, a timeout, a truncated body, 429, 5xx, a 200 whose body is not JSON — with jittered
 * exponential backoff or the server's `Retry-After`, all inside one budget per request (the
 * timeout); a request that exhausts it throws an HttpError naming the faults it met. A failed
 * request is never an answer (docs/findings.md "Soundness"). A maximum response size enforced while
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
import { type BaseUrl, splitUrlCredentials } from './base-url.js';
import { createJsonBoundsScan, type JsonBoundsScan } from './json-bounds.js';
import { mapTransportError } from './map-error.js';
import { createPacer } from './pacer.js';
import { redactUrl } from './redact-url.js';
import { jsonTooComplexError, parseJsonBody, statusError } from './response.js';

export interface HttpClientOptions {
  /**
   * deadline of an attempt, also the headers and body inactivity timeout, and the budget of a read
   * with its retries unless retryBudgetMs is given (default 30,000)
   */
  readonly timeoutMs?: number;
  /** TCP/TLS connect timeout (default min(timeoutMs, 10,000)) */
  readonly connectTimeoutMs?: number;
  /** decoded body size limit in bytes; the transfer is aborted beyond it (default 16 MiB) */
  readonly maxResponseBytes?: number;
  /** at most this many extra attempts of a read after a transport failure, inside its budget (default 24) */
  readonly retries?: number;
  /** a read's whole budget: attempts and the waits between them (default timeoutMs) */
  readonly retryBudgetMs?: number;
  /** first backoff delay; doubles per attempt, with jitter (default 100) */
  readonly retryBaseDelayMs?: number;
  /** backoff cap (default 1,000); a Retry-After may ask for more, inside the budget */
  readonly retryMaxDelayMs?: number;
  /** pacing: requests per second at most (default 50; Infinity = no rate limit) */
  readonly maxRps?: number;
  /** pacing: requests in flight at most (default 8) */
  readonly maxInFlight?: number;
  /** environment for HTTP_PROXY / HTTPS_PROXY / NO_PROXY (default: none, i.e. direct) */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** a dispatcher to use instead of the one built from the options above (tests, custom TLS) */
  readonly dispatcher?: Dispatcher;
  readonly userAgent?: string;
  /**
   * told after every attempt (metrics by endpoint, e.g. `watch`): the URL in its shown form
   * (credential-stripped), whether it was a retry, and the status (null when no answer came)
   */
  readonly onAttempt?: (attempt: AttemptRecord) => void;
  /** seams for tests */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** One attempt of a request, as `HttpClientOptions.onAttempt` is told of it. */
export interface AttemptRecord {
  /** the URL as shown: credentials stripped, the query values the user typed redacted */
  readonly url: string;
  /** the attempt repeats an earlier one of the same request */
  readonly retry: boolean;
  /** the answer's status; null after a transport failure (reset, timeout, refused) */
  readonly status: number | null;
}

/** What the auditor's client did on the wire (AuditSummary.requests). */
export interface RequestCounts {
  /** attempts sent, retries included */
  readonly sent: number;
  /** attempts that were retries of an earlier one */
  readonly retried: number;
  /** answers 429 (rate limited) */
  readonly throttled: number;
  /** attempts that failed without a usable answer (5xx, 429, reset, timeout, truncated, not JSON) */
  readonly failed: number;
  /** requests given up after their budget (each one is a could-not-check somewhere) */
  readonly exhausted: number;
  /** time spent waiting before retries and for pacing, summed over requests, ms */
  readonly waitedMs: number;
}

export interface SendOptions {
  /** a POST that only reads (a quote, a ledger query): retried like a GET */
  readonly read?: boolean;
  /**
   * extra request headers (a ledger API's `authorization: Bearer …`); never echoed in a message, a
   * report or the mirror — a `RawResponse` keeps the URL and the body, not the headers
   */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HttpClient {
  /**
   * Sends a request and returns the first usable answer (any status but 429/5xx; for a 200 a JSON
   * body), retrying a read after transport failures; an HttpError naming them when its budget runs out.
   * Messages and `RawResponse.url` show a string URL with every query value and its fragment
   * redacted, a `BaseUrl` (./base-url.ts `joinBaseUrl`) as its `display` form.
   */
  send(
    method: 'GET' | 'POST',
    url: string | BaseUrl,
    body?: string,
    options?: SendOptions,
  ): Promise<RawResponse>;
  /** GETs `url`, requires status 200, parses the body as JSON and validates it with `parse`. */
  getJson<T>(
    url: string | BaseUrl,
    parse: (json: unknown) => T,
  ): Promise<{ readonly raw: RawResponse; readonly value: T }>;
  /** what the client did so far (attempts, retries, throttles, waits) */
  counts(): RequestCounts;
  close(): Promise<void>;
}

const DEFAULT_MAX = 16 * 1024 * 1024;
/** the least budget a retry is started with (a shorter one could only time out) */
const MIN_ATTEMPT_MS = 250;
/** extra attempts after a refused connection (nothing listens: more would only delay the verdict) */
const REFUSED_RETRIES = 2;

function isHttpUrl(url: string): boolean {
  const protocol = URL.canParse(url) ? new URL(url).protocol : null;
  return protocol === 'http:' || protocol === 'https:';
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

/** A failed attempt's short name for messages: "429", "503", "reset", "timeout", "truncated", "not JSON". */
function faultName(x: RawResponse | HttpError): string {
  if (!(x instanceof HttpError)) return x.status === 200 ? 'not JSON' : String(x.status);
  if (x.code === 'HTTP_TIMEOUT') return 'timeout';
  if (x.code === 'HTTP_TRUNCATED') return 'truncated';
  return (x.details as { libraryCode?: string } | undefined)?.libraryCode === 'ECONNREFUSED'
    ? 'refused'
    : 'reset';
}

const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * True when a 200 body is not shaped like a JSON document — it does not open with `{` or `[` and
 * close with `}` or `]` (a gateway's HTML page, an empty body). A cheap look at both ends instead
 * of a second parse; a body that has the shape but does not parse is the exchange's own answer,
 * judged by the caller (HTTP_INVALID_JSON), not retried.
 */
function isNotJsonShaped(body: Uint8Array): boolean {
  let i = 0;
  let j = body.length - 1;
  while (i <= j && isSpace(body[i])) i++;
  while (j >= i && isSpace(body[j])) j--;
  if (i > j) return true;
  const first = body[i];
  const last = body[j];
  return !((first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d));
}

/**
 * An answer that is a transport failure, not the server's statement: 429, 5xx, a 200 that is not
 * JSON. A 200 nested past the JSON bounds (./json-bounds.ts) never gets here: it is the server's
 * statement even when it looks cut off (no honest answer, whole or truncated, is that deep), so
 * the read stops at its breaking token with HTTP_JSON_TOO_COMPLEX and it is not retried.
 */
function isFailedAnswer(raw: RawResponse): boolean {
  if (raw.status === 429 || raw.status >= 500) return true;
  return raw.status === 200 && isNotJsonShaped(raw.body);
}

function isRetryableError(e: unknown): boolean {
  return (
    e instanceof HttpError &&
    (e.code === 'HTTP_CONNECT_FAILED' || e.code === 'HTTP_TIMEOUT' || e.code === 'HTTP_TRUNCATED')
  );
}

/**
 * The error of a read whose budget ran out: the last failure's kind (HTTP_STATUS for a 429/5xx,
 * HTTP_INVALID_JSON for a 200 that is not JSON, else the transport error's own code), with every
 * fault met, the attempts and the time in its message and details.
 */
function exhausted(
  safeUrl: string,
  faults: readonly string[],
  elapsedMs: number,
  last: { raw: RawResponse } | HttpError,
): HttpError {
  const byKind = new Map<string, number>();
  for (const f of faults) byKind.set(f, (byKind.get(f) ?? 0) + 1);
  const tried =
    faults.length === 1
      ? ''
      : ` (no usable answer in ${faults.length} attempts over ${(elapsedMs / 1000).toFixed(1)} s: ${[...byKind].map(([k, n]) => `${k} ×${n}`).join(', ')})`;
  const details = { url: safeUrl, attempts: faults.length, faults: Object.fromEntries(byKind) };
  if (last instanceof HttpError)
    return new HttpError(last.code, `${last.shortMessage}${tried}`, {
      cause: last,
      details: { ...last.details, ...details },
    });
  if (last.raw.status === 200) {
    let reason = `${safeUrl} returned a body that is not JSON`;
    try {
      parseJsonBody(last.raw);
    } catch (e) {
      if (e instanceof HttpError) reason = e.shortMessage;
    }
    return new HttpError('HTTP_INVALID_JSON', `${reason}${tried}`, { details: { ...details, status: 200 } });
  }
  const base = statusError(last.raw);
  return new HttpError('HTTP_STATUS', `${base.shortMessage}${tried}`, {
    details: { ...details, status: last.raw.status },
  });
}

/** Creates a client; call `close()` when done to release sockets. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new HttpError('HTTP_REQUEST_INVALID', `"timeoutMs" expected a positive integer, got ${timeoutMs}`);
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX;
  const retries = options.retries ?? 24;
  const budgetMs = options.retryBudgetMs ?? timeoutMs;
  const baseDelay = options.retryBaseDelayMs ?? 100;
  const maxDelay = options.retryMaxDelayMs ?? 1_000;
  const minAttemptMs = Math.min(MIN_ATTEMPT_MS, timeoutMs);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const random = options.random ?? Math.random;
  const ownDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? buildDispatcher(options, timeoutMs);
  const userAgent = options.userAgent ?? 'reserve-audit/0.1';
  const pacer = createPacer({
    ...(options.maxRps === undefined ? {} : { maxRps: options.maxRps }),
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
  });
  // pacing and retry budgets run on the real clock: `now` stamps responses and may be a test's;
  // `sleep` is the wait before a retry
  const tally = { sent: 0, retried: 0, throttled: 0, failed: 0, exhausted: 0, waitedMs: 0 };

  /**
   * Reads (and decodes) a body; with `scan`, each chunk is measured against the JSON bounds as it
   * arrives and the transfer is aborted at the first breach (HTTP_JSON_TOO_COMPLEX), so a body
   * nested millions deep costs the bytes before its breaking token, not its whole size.
   */
  async function readBody(
    body: Readable,
    encoding: string,
    safeUrl: string,
    scan: { readonly status: number; readonly bounds: JsonBoundsScan } | null,
  ): Promise<Uint8Array> {
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
        const breach = scan === null ? null : scan.bounds.push(chunk);
        if (breach !== null) {
          tooLarge = jsonTooComplexError(
            safeUrl,
            scan?.status ?? 0,
            breach,
            `transfer aborted after ${total} bytes`,
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
    safeUrl: string,
    body: string | undefined,
    attemptMs: number,
    extraHeaders: Readonly<Record<string, string>>,
  ): Promise<{ raw: RawResponse; retryAfter: number | null }> {
    // credentials in the URL travel as Basic authentication, never in the request line
    const target = splitUrlCredentials(url);
    const startedAtMs = now();
    const ac = new AbortController();
    const deadline = new HttpError('HTTP_TIMEOUT', `${safeUrl} did not complete within ${attemptMs} ms`, {
      details: { url: safeUrl, timeoutMs: attemptMs },
    });
    const timer = setTimeout(() => ac.abort(deadline), attemptMs);
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
            ...extraHeaders,
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
        // the answers the auditor reads as JSON are scanned as they arrive; a 429/5xx is a failed
        // answer retried whatever its body (read whole, within the size cap)
        const judged = res.statusCode !== 429 && res.statusCode < 500;
        bytes = await readBody(
          res.body,
          encoding,
          safeUrl,
          judged ? { status: res.statusCode, bounds: createJsonBoundsScan() } : null,
        );
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

  /**
   * The wait before the next attempt: the server's Retry-After when it gave one (with up to 10 %
   * jitter, so throttled clients do not return together), else exponential in the failures that
   * had none (`step`), jittered ×0.5–1, capped.
   */
  function backoff(step: number, retryAfter: number | null): number {
    if (retryAfter !== null) return Math.round(retryAfter * (1 + random() * 0.1));
    const exp = Math.min(maxDelay, baseDelay * 2 ** step);
    return Math.round(exp * (0.5 + random() * 0.5));
  }

  async function send(
    method: 'GET' | 'POST',
    target: string | BaseUrl,
    body?: string,
    sendOptions: SendOptions = {},
  ): Promise<RawResponse> {
    // a string is shown with every query value redacted; a BaseUrl (joinBaseUrl) carries its own display form
    const url = typeof target === 'string' ? target : target.request;
    const safeUrl = typeof target === 'string' ? redactUrl(target) : target.display;
    if (!isHttpUrl(url)) {
      throw new HttpError(
        'HTTP_REQUEST_INVALID',
        `"url" expected an absolute http(s) URL, got ${JSON.stringify(safeUrl)}`,
      );
    }
    const retryable = method === 'GET' || sendOptions.read === true;
    const maxAttempts = retryable ? retries + 1 : 1;
    const started = Date.now();
    const faults: string[] = [];
    let steps = 0;
    for (let attempt = 0; ; attempt++) {
      const remaining = started + budgetMs - Date.now();
      let outcome: { raw: RawResponse; retryAfter: number | null } | HttpError;
      const release = await pacer.acquire();
      tally.sent++;
      if (attempt > 0) tally.retried++;
      try {
        outcome = await once(
          method,
          url,
          safeUrl,
          body,
          Math.max(1, Math.min(timeoutMs, remaining)),
          sendOptions.headers ?? {},
        );
      } catch (e) {
        outcome = e instanceof HttpError ? e : mapTransportError(e, safeUrl, 'connect');
      } finally {
        release();
      }
      options.onAttempt?.({
        url: safeUrl,
        retry: attempt > 0,
        status: outcome instanceof HttpError ? null : outcome.raw.status,
      });
      if (!(outcome instanceof HttpError)) {
        if (outcome.raw.status === 429) {
          tally.throttled++;
          pacer.onThrottled();
        } else pacer.onAnswered();
        if (!retryable || !isFailedAnswer(outcome.raw)) return outcome.raw;
      } else if (!retryable || !isRetryableError(outcome)) throw outcome;
      tally.failed++;
      faults.push(faultName(outcome instanceof HttpError ? outcome : outcome.raw));
      const retryAfter = outcome instanceof HttpError ? null : outcome.retryAfter;
      const wait = backoff(steps, retryAfter);
      if (retryAfter === null) steps++;
      // nothing listens there: a wrong URL, not a hiccup — a few tries, not the whole budget
      const refusedOut = faults.filter((f) => f === 'refused').length > REFUSED_RETRIES;
      // a retry needs time to answer: none is started with less than minAttemptMs of budget left
      if (refusedOut || attempt + 1 >= maxAttempts || Date.now() + wait + minAttemptMs > started + budgetMs) {
        tally.exhausted++;
        throw exhausted(safeUrl, faults, Date.now() - started, outcome);
      }
      tally.waitedMs += wait;
      await sleep(wait);
    }
  }

  async function getJson<T>(
    url: string | BaseUrl,
    parse: (json: unknown) => T,
  ): Promise<{ raw: RawResponse; value: T }> {
    const raw = await send('GET', url);
    if (raw.status !== 200) throw statusError(raw);
    return { raw, value: parse(parseJsonBody(raw)) };
  }

  return {
    send,
    getJson,
    counts: () => ({ ...tally }),
    close: async () => {
      if (ownDispatcher) await dispatcher.close();
    },
  };
}
