/**
 * Aggregator pairs and tickers (docs/protocol/api-decisions.md §6): one entry per pair of active pools;
 * price and depth from the deepest pool, volumes/high/low over the trailing 24 h of swap events
 * across all pools of the pair, liquidity in USD = pair TVL in CC × the external CC-USD price.
 * Values are JSON numbers (converted from exact decimals at the end). Returns the wire types
 * `AggregatorPair` and `AggregatorTicker` (src/core/wire/aggregator.ts) the auditor parses.
 */

import { type Dec, ONE, ZERO } from '../money/decimal.js';
import type { AggregatorPair, AggregatorTicker } from '../wire/aggregator.js';
import { formatTickerId } from './market-symbol.js';
import { findDeepestPool } from './route.js';
import { toDec } from './state-decimal.js';
import { computeMidPriceExact, computeTvlCc } from './swap-math.js';
import type { Amount, PoolState, SwapEvent, TokenRef } from './types.js';

export const DAY_MS = 86_400_000;

/** The pools of one pair (same token a, same token b). */
export interface PairGroup {
  readonly tickerId: string;
  readonly base: string;
  readonly target: string;
  /** every pool of the pair, active or not (volumes count retired pools too) */
  readonly pools: readonly PoolState[];
  /** the deepest active pool */
  readonly deepest: PoolState;
}

const refKey = (t: TokenRef): string => `${t.admin}\u0000${t.id}`;

/** Groups pools by pair; pairs without an active pool are dropped. Sorted by ticker_id. */
function computePairGroups(pools: readonly PoolState[], cc: TokenRef): PairGroup[] {
  const byKey = new Map<string, PoolState[]>();
  for (const p of pools) {
    const k = `${refKey(p.tokenA)}\u0001${refKey(p.tokenB)}`;
    const list = byKey.get(k);
    if (list === undefined) byKey.set(k, [p]);
    else list.push(p);
  }
  const groups: PairGroup[] = [];
  for (const list of byKey.values()) {
    const deepest = findDeepestPool(list, cc);
    if (deepest === null) continue;
    groups.push({
      tickerId: formatTickerId(deepest.tokenA.symbol, deepest.tokenB.symbol),
      base: deepest.tokenA.symbol,
      target: deepest.tokenB.symbol,
      pools: list,
      deepest,
    });
  }
  return groups.sort((a, b) => (a.tickerId < b.tickerId ? -1 : a.tickerId > b.tickerId ? 1 : 0));
}

/** GET /aggregator/pairs: `{ticker_id, base, target, pool_id}` per pair (pool_id = deepest pool). */
export function computePairs(pools: readonly PoolState[], cc: TokenRef): AggregatorPair[] {
  return computePairGroups(pools, cc).map((g) => ({
    ticker_id: g.tickerId,
    base: g.base,
    target: g.target,
    pool_id: g.deepest.poolId,
  }));
}

export interface TickersInput {
  readonly pools: readonly PoolState[];
  /** swap events; only those of the last 24 h (nowMs − 24 h ≤ ts < nowMs) are used */
  readonly events: readonly SwapEvent[];
  readonly cc: TokenRef;
  /** external CC-USD price */
  readonly ccUsdPrice: Amount;
  readonly nowMs: number;
}

/** What the tickers take from a pair's events: sums, count, high and low. */
export interface PairActivity {
  readonly baseVolume: Dec;
  readonly quoteVolume: Dec;
  readonly volumeCc: Dec;
  readonly high: Dec | null;
  readonly low: Dec | null;
  readonly count: number;
}

/** Sums, high and low of a pair's events in [fromMs, toMs). high/low are of `priceAfter` (mid after each swap). */
export function computePairActivity(
  events: readonly SwapEvent[],
  poolIds: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): PairActivity {
  let baseVolume = ZERO;
  let quoteVolume = ZERO;
  let volumeCc = ZERO;
  let high: Dec | null = null;
  let low: Dec | null = null;
  let count = 0;
  for (const e of events) {
    if (!poolIds.has(e.poolId) || e.tsMs < fromMs || e.tsMs >= toMs) continue;
    count++;
    baseVolume = baseVolume.add(toDec(e.baseAmount, 'baseAmount'));
    quoteVolume = quoteVolume.add(toDec(e.quoteAmount, 'quoteAmount'));
    volumeCc = volumeCc.add(toDec(e.volumeCc, 'volumeCc'));
    const p = toDec(e.priceAfter, 'priceAfter');
    if (high === null || p.gt(high)) high = p;
    if (low === null || p.lt(low)) low = p;
  }
  return { baseVolume, quoteVolume, volumeCc, high, low, count };
}

/**
 * GET /aggregator/tickers. last_price = exact mid of the deepest pool; bid = mid × (1 − fee_rate),
 * ask = mid × (1 + fee_rate) with that pool's fee rate; base/target volume = Σ baseAmount /
 * quoteAmount of the pair's events over [now − 24 h, now); high/low = max/min priceAfter of those
 * events; liquidity_in_usd = Σ 2 × CC reserve over the pair's active pools × ccUsdPrice.
 * Each value is the nearest JSON number to the exact decimal.
 */
export function computeTickers(x: TickersInput): AggregatorTicker[] {
  const groups = computePairGroups(x.pools, x.cc);
  // one pass over the events: each pair's own events, in their original order (the same sums as
  // filtering all events per pair, without O(pairs × events) work on a long history)
  const groupOfPool = new Map<string, number>();
  groups.forEach((g, i) => {
    for (const p of g.pools) groupOfPool.set(p.poolId, i);
  });
  const eventsOf: SwapEvent[][] = groups.map(() => []);
  const from = x.nowMs - DAY_MS;
  for (const e of x.events) {
    if (e.tsMs < from || e.tsMs >= x.nowMs) continue;
    const i = groupOfPool.get(e.poolId);
    if (i !== undefined) eventsOf[i]?.push(e);
  }
  return computeTickersWith(
    x,
    (ids, fromMs, toMs, i) => computePairActivity(eventsOf[i] ?? [], ids, fromMs, toMs),
    groups,
  );
}

/**
 * The tickers with each pair's activity over [now − 24 h, now) taken from `activityOf` (the pair's
 * pool ids, the window, the pair's index in `groups`): computeTickers scans the events,
 * computeTickersFromLog (market-windows.ts) asks the swap-event index.
 */
export function computeTickersWith(
  x: Omit<TickersInput, 'events'>,
  activityOf: (
    poolIds: ReadonlySet<string>,
    fromMs: number,
    toMs: number,
    groupIndex: number,
  ) => PairActivity,
  groups: readonly PairGroup[] = computePairGroups(x.pools, x.cc),
): AggregatorTicker[] {
  const ccUsd = toDec(x.ccUsdPrice, 'ccUsdPrice');
  const from = x.nowMs - DAY_MS;
  return groups.map((g, i) => {
    const mid = computeMidPriceExact(g.deepest);
    const fee = toDec(g.deepest.feeRate, 'feeRate');
    const ids = new Set(g.pools.map((p) => p.poolId));
    const act = activityOf(ids, from, x.nowMs, i);
    let tvl = ZERO;
    for (const p of g.pools) if (p.active) tvl = tvl.add(computeTvlCc(p, x.cc));
    return {
      ticker_id: g.tickerId,
      base_currency: g.base,
      target_currency: g.target,
      pool_id: g.deepest.poolId,
      last_price: mid === null ? null : mid.toNumber(),
      base_volume: act.baseVolume.toNumber(),
      target_volume: act.quoteVolume.toNumber(),
      liquidity_in_usd: tvl.mul(ccUsd).toNumber(),
      bid: mid === null ? null : mid.mul(ONE.sub(fee)).toNumber(),
      ask: mid === null ? null : mid.mul(ONE.add(fee)).toNumber(),
      high: act.high === null ? null : act.high.toNumber(),
      low: act.low === null ? null : act.low.toNumber(),
    };
  });
}
