/**
 * GET /aggregator/pairs, /aggregator/tickers, /aggregator/orderbook (docs/protocol/public-api.md "Aggregator
 * endpoints", api-decisions §6): CoinGecko exchange-integration field names, plain JSON numbers,
 * built from the same 5-second pool snapshot as /pools/state so pairs and reserves agree.
 * Errors: `400 missing ticker_id`, `404 unknown ticker_id`, `400` for a bad depth.
 * Asked with `?include_proof=true`, each ticker also carries the `contract_id` and
 * `created_event_blob` of the reserve contract of its `pool_id` in the pool snapshot it was
 * computed from (an extension, docs/decisions/server.md "Tickers"): the very same cached reply
 * (values, `Age`) with two fields added; without it the body is exactly the live one.
 */
import { formatTickerId } from '../../core/amm/market-symbol.js';
import { computeTickersFromLog } from '../../core/amm/market-windows.js';
import { computeOrderbook, parseOrderbookDepth } from '../../core/amm/orderbook.js';
import { findDeepestPool } from '../../core/amm/route.js';
import { computePairs } from '../../core/amm/tickers.js';
import type { PoolState } from '../../core/amm/types.js';
import type {
  AggregatorOrderbookResponse,
  AggregatorPairsResponse,
  AggregatorTickersResponse,
} from '../../core/wire/aggregator.js';
import { isReserveAuditError } from '../../errors/base.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { PoolSnapshot, RequestContext, RouteDeps } from '../deps.js';
import { jsonReply, type Reply } from '../http.js';
import { CACHE_SECONDS, cachedJson, poolSnapshot, singleParam } from './common.js';

/** ticker id (upper case) → active pools of that pair, built once per pool snapshot (O(1) per request) */
const tickerIndexes = new WeakMap<PoolSnapshot, Map<string, PoolState[]>>();

function findSnapshotTickerPools(snap: PoolSnapshot, tickerId: string): PoolState[] {
  let index = tickerIndexes.get(snap);
  if (index === undefined) {
    index = new Map();
    for (const p of snap.pools) {
      if (!p.active) continue;
      const id = formatTickerId(p.tokenA.symbol, p.tokenB.symbol);
      const list = index.get(id);
      if (list === undefined) index.set(id, [p]);
      else list.push(p);
    }
    tickerIndexes.set(snap, index);
  }
  return index.get(tickerId.toUpperCase()) ?? [];
}

export function aggregatorPairs(deps: RouteDeps): Reply {
  return cachedJson(
    deps,
    'agg-pairs',
    CACHE_SECONDS.aggregatorPairs,
    (): AggregatorPairsResponse => computePairs(poolSnapshot(deps).pools, deps.exchange.cc()),
  );
}

/** per cached tickers reply: the tickers and the pool snapshot they were computed from */
const tickerSources = new WeakMap<Reply, { tickers: AggregatorTickersResponse; snap: PoolSnapshot }>();
/** per cached tickers reply: its `?include_proof=true` variant, built once */
const tickerProofReplies = new WeakMap<Reply, Reply>();

export function aggregatorTickers(deps: RouteDeps, ctx: RequestContext): Reply {
  let built: { tickers: AggregatorTickersResponse; snap: PoolSnapshot } | undefined;
  const reply = cachedJson(
    deps,
    'agg-tickers',
    CACHE_SECONDS.aggregatorTickers,
    (): AggregatorTickersResponse => {
      const snap = poolSnapshot(deps);
      const tickers = computeTickersFromLog({
        pools: snap.all,
        log: deps.exchange.swapEventLog(),
        cc: deps.exchange.cc(),
        ccUsdPrice: deps.exchange.ccUsdPrice(),
        nowMs: snap.atMs,
      });
      built = { tickers, snap };
      return tickers;
    },
  );
  if (built !== undefined) tickerSources.set(reply, built);
  if (singleParam(ctx.query, 'include_proof') !== 'true') return reply;
  const source = tickerSources.get(reply);
  if (source === undefined) return reply;
  let proved = tickerProofReplies.get(reply);
  if (proved === undefined) {
    const byPool = new Map(source.snap.all.map((p) => [p.poolId, p.reserveContract] as const));
    const body: AggregatorTickersResponse = source.tickers.map((t) => {
      const rc = byPool.get(t.pool_id);
      return rc === undefined
        ? t
        : { ...t, contract_id: rc.contractId, created_event_blob: rc.createdEventBlob };
    });
    proved = {
      ...jsonReply(200, body, reply.maxAgeSeconds),
      ...(reply.computedAtMs === undefined ? {} : { computedAtMs: reply.computedAtMs }),
    };
    tickerProofReplies.set(reply, proved);
  }
  return proved;
}

export function aggregatorOrderbook(deps: RouteDeps, ctx: RequestContext): Reply {
  const tickerId = singleParam(ctx.query, 'ticker_id');
  if (tickerId === undefined || tickerId === '')
    throw new RequestRejectedError('REQUEST_INVALID', 'missing ticker_id');
  let depth: number;
  try {
    depth = parseOrderbookDepth(singleParam(ctx.query, 'depth'));
  } catch (e) {
    throw new RequestRejectedError(
      'REQUEST_INVALID',
      isReserveAuditError(e) ? e.shortMessage : 'invalid depth',
    );
  }
  const snap = poolSnapshot(deps);
  const deepest = findDeepestPool(findSnapshotTickerPools(snap, tickerId), deps.exchange.cc());
  if (deepest === null) throw new RequestRejectedError('NOT_FOUND', 'unknown ticker_id');
  const canonical = tickerId.toUpperCase();
  return cachedJson(
    deps,
    `agg-orderbook|${canonical}|${depth}`,
    CACHE_SECONDS.aggregatorOrderbook,
    (): AggregatorOrderbookResponse =>
      computeOrderbook({ pool: deepest, tickerId: canonical, depth, nowMs: snap.atMs }),
  );
}
