/**
 * GET /aggregator/pairs, /aggregator/tickers, /aggregator/orderbook (public-api.md "Aggregator
 * endpoints", api-decisions §6): CoinGecko exchange-integration field names, plain JSON numbers,
 * built from the same 5-second pool snapshot as /pools/state so pairs and reserves agree.
 * Errors: `400 missing ticker_id`, `404 unknown ticker_id`, `400` for a bad depth.
 */
import { findTickerPools } from '../../core/amm/market-symbol.js';
import { computeOrderbook, parseOrderbookDepth } from '../../core/amm/orderbook.js';
import { findDeepestPool } from '../../core/amm/route.js';
import { computePairs, computeTickers, DAY_MS } from '../../core/amm/tickers.js';
import { isReserveAuditError } from '../../errors/base.js';
import type { RouteDeps } from '../app.js';
import { HttpError, type Reply } from '../http.js';
import type { RequestContext } from '../router.js';
import { CACHE_SECONDS, cachedJson, poolSnapshot, singleParam } from './common.js';

export function aggregatorPairs(deps: RouteDeps): Reply {
  return cachedJson(deps, 'agg-pairs', CACHE_SECONDS.aggregatorPairs, () =>
    computePairs(poolSnapshot(deps).pools, deps.exchange.cc()),
  );
}

export function aggregatorTickers(deps: RouteDeps): Reply {
  return cachedJson(deps, 'agg-tickers', CACHE_SECONDS.aggregatorTickers, () => {
    const snap = poolSnapshot(deps);
    return computeTickers({
      pools: snap.all,
      events: deps.exchange.swapEvents(snap.atMs - DAY_MS, snap.atMs),
      cc: deps.exchange.cc(),
      ccUsdPrice: deps.exchange.ccUsdPrice(),
      nowMs: snap.atMs,
    });
  });
}

export function aggregatorOrderbook(deps: RouteDeps, ctx: RequestContext): Reply {
  const tickerId = singleParam(ctx.query, 'ticker_id');
  if (tickerId === undefined || tickerId === '') throw new HttpError(400, 'missing ticker_id');
  let depth: number;
  try {
    depth = parseOrderbookDepth(singleParam(ctx.query, 'depth'));
  } catch (e) {
    throw new HttpError(400, isReserveAuditError(e) ? e.shortMessage : 'invalid depth');
  }
  const snap = poolSnapshot(deps);
  const deepest = findDeepestPool(findTickerPools(snap.pools, tickerId), deps.exchange.cc());
  if (deepest === null) throw new HttpError(404, 'unknown ticker_id');
  const canonical = tickerId.toUpperCase();
  return cachedJson(deps, `agg-orderbook|${canonical}|${depth}`, CACHE_SECONDS.aggregatorOrderbook, () =>
    computeOrderbook({ pool: deepest, tickerId: canonical, depth, nowMs: snap.atMs }),
  );
}
