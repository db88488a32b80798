/**
 * What a request handler gets (api-decisions §8): the read side of the exchange (`ExchangeView`),
 * the injected clock, the window caches shared by the routes, and the request itself. `createApp`
 * (app.ts) builds one `RouteDeps` per app and wires the routes (routes/) and the websocket (ws/)
 * with it; those modules import this file, never app.ts, so the arrows point one way:
 * app → routes, ws → deps.
 */
import type { IncomingMessage } from 'node:http';
import type { PoolState } from '../core/amm/types.js';
import type { SimClock } from '../sim/clock.js';
import type { ExchangeView } from '../sim/exchange.js';
import type { WindowCache } from './cache.js';
import type { Reply } from './http.js';

/** Where the server reports what happens (a failed request, a dropped websocket client). */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** One pool snapshot per 5-second window, shared by the pool endpoints and the aggregator. */
export interface PoolSnapshot {
  readonly atMs: number;
  /** active pools only, in the exchange's order */
  readonly pools: readonly PoolState[];
  /** every pool, active or retired (aggregator volumes count retired pools too) */
  readonly all: readonly PoolState[];
}

/** What a public route needs from the app. */
export interface RouteDeps {
  readonly exchange: ExchangeView;
  readonly clock: SimClock;
  readonly cache: WindowCache<Reply>;
  readonly snapshots: WindowCache<PoolSnapshot>;
  /** intermediate results shared by several routes (e.g. the /stats bundle) */
  readonly memo: WindowCache<unknown>;
}

/** One request as a handler sees it. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** the client key used by the rate limiter (remote address) */
  readonly client: string;
}
