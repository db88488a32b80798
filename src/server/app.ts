/**
 * `createApp(options)` — the reference server as an in-process request handler (api-decisions §7,
 * §8). Builds the route dependencies (deps.ts: the ExchangeView, the clock, the window caches) and
 * wires the public routes under `prefix` (/v1/public), the optional simulation interface (/v1/sim,
 * off by default), the optional Canton JSON Ledger API (/v2, ledger-api/, off by default), the public websocket (`wsPath`), CORS, caching, the optional rate limit, and the
 * top-level guard: an unexpected exception becomes a logged `500 internal error`; every rejection
 * of a request is a `RequestRejectedError` (4xx, src/errors/server.ts), never logged as a failure.
 * Requests that bypass the handler (parser errors, non-websocket upgrades): raw-requests.ts.
 * The server sees the simulated ledger only through sim/exchange.ts. Binding a port: serve.ts.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RequestRejectedError, ServerError } from '../errors/server.js';
import type { SimClock } from '../sim/clock.js';
import type { ExchangeSimulation, ExchangeView } from '../sim/exchange.js';
import { WindowCache } from './cache.js';
import { ConnectionGuard, type ConnectionLimitOptions } from './connection-guard.js';
import { type Logger, type PoolSnapshot, type RequestContext, type RouteDeps, silentLogger } from './deps.js';
import { errorBody, formatAgeHeader, JSON_CONTENT_TYPE, type Reply } from './http.js';
import { assertLedgerAuthOptions } from './ledger-api/auth.js';
import { addLedgerApiRoutes, type LedgerApiOptions } from './ledger-api/routes.js';
import { RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { answerClientError, answerConnect, serveUpgradeAsHttp } from './raw-requests.js';
import { Router } from './router.js';
import { addPublicRoutes } from './routes/index.js';
import { DEFAULT_EXCHANGE_NAME, EXTERNAL_SOURCE } from './routes/info.js';
import { addSimulationRoutes } from './routes/simulation.js';
import { type PublicSocketOptions, PublicSocketServer } from './ws/server.js';

export type { PoolWindowActivity, SwapEventLog, SwapWindowTotals } from '../core/amm/swap-event-index.js';
export type * from '../core/amm/types.js';
export type { Dec } from '../core/money/decimal.js';
export type { SimClock } from '../sim/clock.js';
export type * from '../sim/exchange.js';
export type { ConnectionLimitOptions } from './connection-guard.js';
export { type Logger, silentLogger } from './deps.js';
export type { LedgerAuthOptions } from './ledger-api/auth.js';
export type { LedgerApiOptions } from './ledger-api/routes.js';
export type { RateLimitOptions } from './rate-limit.js';
export type { PublicSocketOptions } from './ws/server.js';

export interface AppOptions {
  readonly exchange: ExchangeView;
  readonly simulation?: ExchangeSimulation;
  /** defaults to the exchange's own clock */
  readonly clock?: SimClock;
  readonly prefix?: string;
  readonly wsPath?: string;
  /** path prefix of the simulation interface (only with enableSimulation) */
  readonly simPrefix?: string;
  readonly rateLimit?: RateLimitOptions;
  readonly enableSimulation?: boolean;
  readonly logger?: Logger;
  readonly ws?: PublicSocketOptions;
  /** per-client connection cap and pipelining limits (connection-guard.ts); on by default */
  readonly connections?: ConnectionLimitOptions;
  /**
   * the exchange's name: the `source` of the service's own markets in /markets/info
   * (docs/protocol/api-decisions.md §10; default `service`, `cantex` for clients of the live service)
   */
  readonly exchangeName?: string;
  /**
   * serve Canton's JSON Ledger API v2 for the ledger under `/v2` (`serve --ledger-api`,
   * ledger-api/routes.ts); off when absent
   */
  readonly ledgerApi?: LedgerApiOptions;
}

export interface App {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * hooks `server`'s non-request events: the public websocket on its upgrade requests for
   * `wsPath` (other upgrade requests are served as plain HTTP), JSON 4xx answers to requests
   * its parser rejects ('clientError'), to `CONNECT` ('connect'), to an unsupported `Expect`
   * ('checkExpectation') and to an HTTP/1.1 request without `Host` (node's own answer is an empty
   * 400: turned off on `server`), and the per-client connection cap ('connection')
   */
  attach(server: Server): void;
  /** the same as `attach` (kept for callers written before it) */
  attachWebsocket(server: Server): void;
  /** the number of open public websocket connections */
  websocketClients(): number;
  /** closes websockets and stops timers; does not close the http server or the exchange */
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  // a browser client may read the rate limit's wait and the cached reply's age
  'Access-Control-Expose-Headers': 'Retry-After, Age',
};

export function createApp(opts: AppOptions): App {
  const exchange = opts.exchange;
  const clock: SimClock = opts.clock ?? { nowMs: () => exchange.nowMs() };
  const prefix = opts.prefix ?? '/v1/public';
  const wsPath = opts.wsPath ?? '/v1/ws/public';
  const simPrefix = opts.simPrefix ?? '/v1/sim';
  const logger = opts.logger ?? silentLogger;
  const now = (): number => clock.nowMs();
  const deps: RouteDeps = {
    exchange,
    clock,
    cache: new WindowCache<Reply>({ now }),
    snapshots: new WindowCache<PoolSnapshot>({ now }),
    memo: new WindowCache<unknown>({ now }),
  };
  const limiter =
    opts.rateLimit === undefined ? undefined : new RateLimiter(opts.rateLimit, () => Date.now());

  const exchangeName = opts.exchangeName ?? DEFAULT_EXCHANGE_NAME;
  assertExchangeName(exchangeName);
  const router = new Router();
  addPublicRoutes(router, prefix, deps, { wsPath, exchangeName });
  if (opts.enableSimulation === true) {
    if (opts.simulation === undefined) {
      throw new ServerError(
        'SERVER_OPTION_INVALID',
        '"simulation" expected an ExchangeSimulation when enableSimulation is true, got undefined',
      );
    }
    addSimulationRoutes(router, simPrefix, opts.simulation);
  }
  if (opts.ledgerApi !== undefined) {
    assertLedgerAuthOptions(opts.ledgerApi.auth);
    addLedgerApiRoutes(router, opts.ledgerApi);
  }

  const guard = new ConnectionGuard(opts.connections);
  const sockets = new PublicSocketServer(exchange, clock, wsPath, opts.ws ?? {}, logger, {
    // a websocket upgrade, and every frame a client sends, counts against the same per-client
    // rate limit as a request
    ...(limiter === undefined ? {} : { admit: (client: string) => limiter.take(client) }),
    fallback: serveUpgradeAsHttp,
    overCap: (socket) => guard.isOverCap(socket),
  });
  const attached = new WeakSet<Server>();
  const attach = (server: Server): void => {
    if (attached.has(server)) return;
    attached.add(server);
    sockets.attach(server);
    server.on('connection', guard.onConnection);
    server.on('clientError', answerClientError);
    server.on('connect', answerConnect);
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
      drain(req);
      reject(res, new RequestRejectedError('EXPECTATION_FAILED', 'unsupported Expect header'), false, {
        Connection: 'close',
      });
    });
    // node answers an HTTP/1.1 request without Host with an empty 400 before the handler sees it;
    // the handler answers it in JSON instead (a property node reads per request)
    (server as Server & { requireHostHeader?: boolean }).requireHostHeader = false;
  };

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const client = req.socket.remoteAddress ?? 'unknown';
    if (guard.isOverCap(req.socket)) {
      drain(req);
      const message = `too many connections: at most ${guard.maxPerClient} per client address`;
      reject(res, new RequestRejectedError('RATE_LIMITED', message), true, { Connection: 'close' });
      return;
    }
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      drain(req);
      const e = new RequestRejectedError('REQUEST_INVALID', 'missing Host header');
      reject(res, e, true, { Connection: 'close' });
      return;
    }
    if (limiter !== undefined) {
      const d = limiter.take(client);
      if (!d.allowed) {
        drain(req);
        const headers = { 'Retry-After': String(d.retryAfterSeconds) };
        reject(res, new RequestRejectedError('RATE_LIMITED', 'rate limit exceeded', { headers }), true);
        return;
      }
    }
    const match = router.match(method, path);
    if (match.kind === 'not-found') {
      drain(req);
      reject(res, new RequestRejectedError('NOT_FOUND', 'not found'), path.startsWith(prefix));
      return;
    }
    if (match.kind === 'preflight') {
      drain(req);
      res.writeHead(204, {
        ...(match.cors
          ? {
              ...CORS_HEADERS,
              'Access-Control-Allow-Methods': match.allow.join(', '),
              'Access-Control-Allow-Headers': 'Content-Type',
              'Access-Control-Max-Age': '600',
            }
          : {}),
        Allow: match.allow.join(', '),
        'Content-Length': '0',
      });
      res.end();
      return;
    }
    if (match.kind === 'method-not-allowed') {
      drain(req);
      const headers = { Allow: match.allow.join(', ') };
      reject(
        res,
        new RequestRejectedError('METHOD_NOT_ALLOWED', 'method not allowed', { headers }),
        match.cors,
      );
      return;
    }
    const route = match.route;
    let query: URLSearchParams | undefined;
    const ctx: RequestContext = {
      req,
      method,
      path,
      client,
      get query(): URLSearchParams {
        query ??= new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
        return query;
      },
    };
    try {
      if (route.method === 'GET') drain(req);
      const pending = route.handler(ctx);
      const reply = pending instanceof Promise ? await pending : pending;
      const headers = replyHeaders(reply, route.cors);
      res.writeHead(
        reply.status,
        reply.computedAtMs === undefined
          ? headers
          : { ...headers, Age: formatAgeHeader(reply.computedAtMs, clock.nowMs()) },
      );
      res.end(reply.body);
    } catch (e) {
      if (e instanceof RequestRejectedError) {
        // a 413 leaves unread bytes on the socket: close it after answering
        const extra: Record<string, string> = { 'Cache-Control': 'no-store' };
        if (e.code === 'PAYLOAD_TOO_LARGE') extra.Connection = 'close';
        reject(res, e, route.cors, extra);
        return;
      }
      throw e;
    }
  }

  function handler(req: IncomingMessage, res: ServerResponse): void {
    // a pipelined request is computed only when its turn comes (as the client reads the answers)
    guard.schedule(req, res, () => answer(req, res));
  }

  function answer(req: IncomingMessage, res: ServerResponse): void {
    dispatch(req, res).catch((e: unknown) => {
      logger.error(`unexpected error on ${req.method ?? '?'} ${req.url ?? '?'}`, e);
      if (!res.headersSent) {
        send(res, 500, errorBody('internal error'), true, {
          'Cache-Control': 'no-store',
          Connection: 'close',
        });
      } else {
        res.destroy();
      }
    });
  }

  return {
    handler,
    attach,
    attachWebsocket: attach,
    websocketClients(): number {
      return sockets.clientCount;
    },
    close(): Promise<void> {
      return sockets.close();
    },
  };
}

/** An exchange name: 1–64 letters, digits, `.`, `_`, `-`; not `external` (the reference streams). */
function assertExchangeName(name: string): void {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name.toLowerCase() === EXTERNAL_SOURCE) {
    throw new ServerError(
      'SERVER_OPTION_INVALID',
      `"exchangeName" expected 1-64 letters, digits, ".", "_" or "-", not "external", got ${JSON.stringify(name.slice(0, 80))}`,
    );
  }
}

/** Response headers of a reply, built once per (reply, cors) — cached replies are reused. */
const headerCache = new WeakMap<Reply, Record<string, string>>();
const corsHeaderCache = new WeakMap<Reply, Record<string, string>>();

function replyHeaders(reply: Reply, cors: boolean): Record<string, string> {
  const cache = cors ? corsHeaderCache : headerCache;
  let h = cache.get(reply);
  if (h === undefined) {
    h = {
      'Content-Type': reply.contentType ?? JSON_CONTENT_TYPE,
      'Content-Length': String(reply.body.byteLength),
      ...(cors ? CORS_HEADERS : {}),
      'Cache-Control':
        reply.maxAgeSeconds === undefined ? 'no-store' : `public, max-age=${reply.maxAgeSeconds}`,
    };
    cache.set(reply, h);
  }
  return h;
}

function drain(req: IncomingMessage): void {
  if (!req.readableEnded) req.resume();
}

/** Answers a rejected request: `{"error": "<shortMessage>"}` with the code's status and headers. */
function reject(
  res: ServerResponse,
  e: RequestRejectedError,
  cors: boolean,
  extra: Record<string, string> = {},
): void {
  // an error is never cached (404, 405, 429 and every 4xx alike)
  send(res, e.status, errorBody(e.shortMessage), cors, {
    'Cache-Control': 'no-store',
    ...e.headers,
    ...extra,
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: Uint8Array,
  cors: boolean,
  extra: Record<string, string> = {},
): void {
  const headers: Record<string, string> = {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': String(body.byteLength),
    ...(cors ? CORS_HEADERS : {}),
    ...extra,
  };
  res.writeHead(status, headers);
  res.end(body);
}
