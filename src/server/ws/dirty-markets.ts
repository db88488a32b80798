/**
 * Which markets changed since the last websocket push (docs/protocol/api-decisions.md §7 "later changes are
 * updates"): symbol → the earliest swap time not yet pushed, or +∞ when only reserves moved
 * (liquidity), in which case candle channels have nothing new.
 */
import type { ExchangeChange } from '../../sim/exchange.js';
import type { MarketFeed } from './feed.js';

export class DirtyMarkets {
  readonly #since = new Map<string, number>();

  get size(): number {
    return this.#since.size;
  }

  add(change: ExchangeChange, feed: MarketFeed): void {
    if (change.type === 'swap') {
      for (const p of change.pools) this.#mark(feed.symbolOf(p), Number.POSITIVE_INFINITY);
      for (const e of change.events) {
        const symbol = feed.symbolOfPoolId(e.poolId);
        if (symbol !== null) this.#mark(symbol, e.tsMs);
      }
    } else {
      this.#mark(feed.symbolOf(change.pool), Number.POSITIVE_INFINITY);
    }
  }

  /** Returns the changed markets and starts over. */
  take(): ReadonlyMap<string, number> {
    const out = new Map(this.#since);
    this.#since.clear();
    return out;
  }

  #mark(symbol: string, tsMs: number): void {
    const prev = this.#since.get(symbol);
    this.#since.set(symbol, prev === undefined ? tsMs : Math.min(prev, tsMs));
  }
}
