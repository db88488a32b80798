/**
 * Helpers shared by the public route modules: the cache durations of docs/protocol/public-api.md "Limits"
 * (mirrored in `Cache-Control: public, max-age=N`, docs/protocol/api-decisions.md §8), the pool snapshot that
 * /pools/info, /pools/state and /pools/proof share within one cache window (so state and proof
 * describe the same moment), and token renderers.
 */
import { formatPoolMarketSymbol } from '../../core/amm/market-symbol.js';
import type { PoolState, Token, TokenRef } from '../../core/amm/types.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { PoolSnapshot, RouteDeps } from '../deps.js';
import { jsonReply, type Reply } from '../http.js';

/** Seconds each endpoint may be cached (client and server side). */
export const CACHE_SECONDS = {
  tokensInfo: 60,
  swapInfo: 300,
  marketsInfo: 60,
  exchangeInfo: 60,
  pools: 5,
  /** the /stats swap figures (memoised per window) */
  stats: 60,
  /** the /stats reply: its pool_tvl comes from the 5-second pool snapshot it names */
  statsReply: 5,
  volumeClosed: 3600,
  volumeOpen: 30,
  aggregatorPairs: 60,
  aggregatorTickers: 10,
  aggregatorOrderbook: 10,
} as const;

/**
 * The cached reply for `key` in the current window of `seconds`, built by `build` on a miss. The
 * reply remembers when it was computed, so every response served from the cache carries `Age`.
 */
export function cachedJson(deps: RouteDeps, key: string, seconds: number, build: () => unknown): Reply {
  return deps.cache.get(key, seconds * 1000, () => ({
    ...jsonReply(200, build(), seconds),
    computedAtMs: deps.clock.nowMs(),
  }));
}

/** One pool snapshot per 5-second window, shared by the three pool endpoints and the aggregator. */
export function poolSnapshot(deps: RouteDeps): PoolSnapshot {
  return deps.snapshots.get('pools', CACHE_SECONDS.pools * 1000, () => {
    const all = deps.exchange.pools();
    return { atMs: deps.clock.nowMs(), pools: all.filter((p) => p.active), all };
  });
}

export function tokenKey(t: TokenRef): string {
  return `${t.admin}\u0000${t.id}`;
}

/** `{instrument_admin, instrument_id}` */
export function instrumentRef(t: TokenRef): { instrument_admin: string; instrument_id: string } {
  return { instrument_admin: t.admin, instrument_id: t.id };
}

/** The market symbol of a pool: `<SYMBOL_A>-<SYMBOL_B>`, upper case (docs/protocol/api-decisions.md §2). */
export function poolSymbol(p: PoolState): string {
  return formatPoolMarketSymbol(p);
}

export function tokenInfo(t: Token): {
  instrument_admin: string;
  instrument_id: string;
  instrument_name: string;
  instrument_symbol: string;
} {
  return {
    instrument_admin: t.admin,
    instrument_id: t.id,
    instrument_name: t.name,
    instrument_symbol: t.symbol,
  };
}

/**
 * The value of a query parameter given at most once; `undefined` when absent.
 * Repeating a parameter is `400 <name> given more than once`.
 */
export function singleParam(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name);
  if (all.length > 1) throw new RequestRejectedError('REQUEST_INVALID', `${name} given more than once`);
  return all[0];
}
