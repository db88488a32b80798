/**
 * The public route table (docs/protocol/public-api.md "Endpoints", "Aggregator endpoints"; api-decisions §4b,
 * §6, §10): every path under the public prefix, GET or POST, all with CORS. The aggregator endpoints
 * are served under `/aggregator/*` (the interface) and `/coingecko/*` (the live service's paths).
 */
import { AGGREGATOR_PATHS } from '../../core/wire/aggregator.js';
import type { RouteDeps } from '../deps.js';
import type { Handler, Method, Router } from '../router.js';
import { aggregatorOrderbook, aggregatorPairs, aggregatorTickers } from './aggregator.js';
import { exchangeInfo, marketsInfo, swapInfo, tokensInfo } from './info.js';
import { poolsInfo, poolsProof, poolsState } from './pools.js';
import { connectQuote, poolsQuote } from './quote.js';
import { stats } from './stats.js';
import { volume } from './volume.js';

/** What the route table needs besides the deps. */
export interface PublicRouteOptions {
  readonly wsPath: string;
  /** `source` of the service's own markets in /markets/info (docs/protocol/api-decisions.md §10) */
  readonly exchangeName: string;
}

export function addPublicRoutes(
  router: Router,
  prefix: string,
  deps: RouteDeps,
  opts: PublicRouteOptions,
): void {
  const add = (method: Method, path: string, handler: Handler): void => {
    router.add({ method, path: `${prefix}${path}`, handler, cors: true });
  };
  add('GET', '/tokens/info', () => tokensInfo(deps));
  add('GET', '/swap/info', () => swapInfo(deps));
  add('GET', '/markets/info', () => marketsInfo(deps, opts.wsPath, opts.exchangeName));
  add('GET', '/exchange/info', () => exchangeInfo(deps));
  add('GET', '/pools/info', () => poolsInfo(deps));
  add('GET', '/pools/state', () => poolsState(deps));
  add('GET', '/pools/proof', () => poolsProof(deps));
  add('GET', '/stats', () => stats(deps));
  add('GET', '/volume', (ctx) => volume(deps, ctx));
  add('POST', '/connect/quote', (ctx) => connectQuote(deps, ctx));
  add('POST', '/pools/quote', (ctx) => poolsQuote(deps, ctx));
  // identical bodies under both namespaces: one cache entry serves both
  for (const ns of AGGREGATOR_PATHS) {
    add('GET', `${ns}/pairs`, () => aggregatorPairs(deps));
    add('GET', `${ns}/tickers`, (ctx) => aggregatorTickers(deps, ctx));
    add('GET', `${ns}/orderbook`, (ctx) => aggregatorOrderbook(deps, ctx));
  }
}
