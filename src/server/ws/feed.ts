/**
 * The data behind the websocket channels (api-decisions §7): ticker and candle payloads for a
 * market, read from the ExchangeView and computed with the AMM core (mid price, pair activity,
 * candles). Ticker `data`: {market, price, ts, bid, ask, volume_24h_cc, high_24h, low_24h,
 * change_24h}; candle `data`: {market, period, bars}. Choices the spec leaves open
 * (docs/decisions/server.md): high/low are null without a swap in 24 h; change_24h is
 * price ÷ (mid after the first swap of the 24 h window) − 1, "0.0000000000" without swaps;
 * `ts` is the creation time of the deepest pool's current reserve contract.
 */
import {
  CANDLE_SNAPSHOT_LIMIT,
  computeBarStart,
  computeCandles,
  computeMidPriceExact,
  computePairActivityFromLog,
  DAY_MS,
  Dec,
  findDeepestPool,
  findMarketPools,
  formatAmount,
  formatPoolMarketSymbol,
  type PoolState,
  type SwapEvent,
  toDec,
} from '../../core/amm/index.js';
import type { SimClock } from '../../sim/clock.js';
import type { ExchangeView } from '../../sim/exchange.js';
import { CANDLE_PERIODS, EXTERNAL_MARKET } from '../routes/info.js';
import type { ChannelRef } from './protocol.js';

export class MarketFeed {
  readonly periods: readonly number[] = CANDLE_PERIODS;
  readonly #ex: ExchangeView;
  readonly #clock: SimClock;
  #poolSymbols = new Map<string, string>();
  /** events fetched during one batch (one flush), keyed by "from|to" */
  #batch: Map<string, readonly SwapEvent[]> | undefined;
  /** ledger changes seen so far; snapshots are memoized per (channel, version, clock second) */
  #version = 0;
  readonly #snapshots = new Map<string, { readonly stamp: string; readonly data: Record<string, unknown> }>();

  constructor(exchange: ExchangeView, clock: SimClock) {
    this.#ex = exchange;
    this.#clock = clock;
  }

  /** the market sets of the ledger version they were computed for */
  #markets: { readonly version: number; readonly all: Set<string>; readonly candle: Set<string> } | undefined;

  /**
   * All channel-bearing markets (service + external), and those with candle channels; computed once
   * per ledger version (every subscribe frame asks).
   */
  marketSets(): { all: Set<string>; candle: Set<string> } {
    if (this.#markets?.version === this.#version) return this.#markets;
    const candle = new Set<string>();
    for (const p of this.#ex.pools()) if (p.active) candle.add(formatPoolMarketSymbol(p));
    const all = new Set(candle);
    all.add(EXTERNAL_MARKET);
    this.#markets = { version: this.#version, all, candle };
    return this.#markets;
  }

  symbolOf(pool: PoolState): string {
    const s = formatPoolMarketSymbol(pool);
    this.#poolSymbols.set(pool.poolId, s);
    return s;
  }

  symbolOfPoolId(poolId: string): string | null {
    let s = this.#poolSymbols.get(poolId);
    if (s === undefined) {
      this.#poolSymbols = new Map(this.#ex.pools().map((p) => [p.poolId, formatPoolMarketSymbol(p)]));
      s = this.#poolSymbols.get(poolId);
    }
    return s ?? null;
  }

  /** Runs `fn` with event queries memoized (one flush computes several channels). */
  batch<T>(fn: () => T): T {
    this.#batch = new Map();
    try {
      return fn();
    } finally {
      this.#batch = undefined;
    }
  }

  #events(fromMs: number, toMs: number): readonly SwapEvent[] {
    const key = `${fromMs}|${toMs}`;
    const hit = this.#batch?.get(key);
    if (hit !== undefined) return hit;
    const ev = this.#ex.swapEvents(fromMs, toMs);
    this.#batch?.set(key, ev);
    return ev;
  }

  /** ledger changes seen so far */
  get version(): number {
    return this.#version;
  }

  /** Records a ledger change (invalidates memoized snapshots). */
  noteChange(): void {
    this.#version += 1;
  }

  /**
   * The snapshot of a channel. Repeated subscribes (many clients, or one client re-subscribing) in
   * the same clock second with no ledger change in between share one computation.
   */
  snapshot(ref: ChannelRef): Record<string, unknown> {
    const stamp = `${this.#version}|${Math.floor(this.#clock.nowMs() / 1000)}`;
    const hit = this.#snapshots.get(ref.key);
    if (hit !== undefined && hit.stamp === stamp) return hit.data;
    const data = this.#computeSnapshot(ref);
    if (this.#snapshots.size >= 1024) this.#snapshots.clear();
    this.#snapshots.set(ref.key, { stamp, data });
    return data;
  }

  #computeSnapshot(ref: ChannelRef): Record<string, unknown> {
    if (ref.kind === 'ticker') return this.ticker(ref.symbol);
    const now = this.#clock.nowMs();
    const from = computeBarStart(now, ref.period) - (CANDLE_SNAPSHOT_LIMIT - 1) * ref.period * 1000;
    return this.#candles(ref.symbol, ref.period, from, now);
  }

  /** The update for a channel after changes since `sinceMs` (+∞: no swap, only liquidity). */
  update(ref: ChannelRef, sinceMs: number): Record<string, unknown> | null {
    if (ref.kind === 'ticker') return this.ticker(ref.symbol);
    if (!Number.isFinite(sinceMs)) return null;
    const now = this.#clock.nowMs();
    return this.#candles(ref.symbol, ref.period, computeBarStart(sinceMs, ref.period), now);
  }

  /** the IDs of the pools of a market */
  #poolIdsOf(symbol: string, pools: readonly PoolState[] = this.#ex.pools()): Set<string> {
    return new Set(pools.filter((p) => formatPoolMarketSymbol(p) === symbol).map((p) => p.poolId));
  }

  #candles(symbol: string, period: number, fromMs: number, nowMs: number): Record<string, unknown> {
    const ids = this.#poolIdsOf(symbol);
    const events = this.#events(fromMs, nowMs + 1).filter((e) => ids.has(e.poolId));
    const bars = computeCandles({ events, periodSeconds: period, nowMs, limit: CANDLE_SNAPSHOT_LIMIT });
    return { market: symbol, period, bars };
  }

  ticker(symbol: string): Record<string, unknown> {
    const now = this.#clock.nowMs();
    if (symbol === EXTERNAL_MARKET) {
      const price = formatAmount(this.#ex.ccUsdPrice());
      return {
        market: symbol,
        price,
        ts: now,
        bid: price,
        ask: price,
        volume_24h_cc: formatAmount('0'),
        high_24h: null,
        low_24h: null,
        change_24h: formatAmount('0'),
      };
    }
    const all = this.#ex.pools();
    const deepest = findDeepestPool(findMarketPools(all, symbol), this.#ex.cc());
    const ids = this.#poolIdsOf(symbol, all);
    // the swap-event index: O(log n) per pool, whatever the length of the history
    const log = this.#ex.swapEventLog();
    const act = computePairActivityFromLog(log, ids, now - DAY_MS, now + 1);
    const mid = deepest === null ? null : computeMidPriceExact(deepest);
    const fee = deepest === null ? new Dec(0) : toDec(deepest.feeRate);
    let change = formatAmount('0');
    if (mid !== null) {
      const first = log.firstEvent(ids, now - DAY_MS, now + 1);
      const ref = first === undefined ? null : toDec(first.priceAfter);
      if (ref?.gt(0)) change = formatAmount(mid.div(ref).sub(1));
    }
    return {
      market: symbol,
      price: mid === null ? null : formatAmount(mid),
      ts: deepest === null ? now : Number(deepest.reserveContract.createdAtMicros / 1000n),
      bid: mid === null ? null : formatAmount(mid.mul(new Dec(1).sub(fee))),
      ask: mid === null ? null : formatAmount(mid.mul(new Dec(1).add(fee))),
      volume_24h_cc: formatAmount(act.volumeCc),
      high_24h: act.high === null ? null : formatAmount(act.high),
      low_24h: act.low === null ? null : formatAmount(act.low),
      change_24h: change,
    };
  }
}
