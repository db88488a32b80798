/**
 * Candles for the websocket candle channels (docs/protocol/api-decisions.md §7): epoch-aligned bars
 * `{start_ts, open, high, low, close, volume}` over a market's swap events. Bar prices are the
 * pool mid price after each swap (`priceAfter`, quote per base); volume is in the base token.
 * Only bars with at least one swap are emitted (no filler bars).
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { type Dec, ZERO } from '../money/decimal.js';
import { formatAmount } from './format.js';
import { toDec } from './state-decimal.js';
import type { SwapEvent } from './types.js';

/** Up to this many bars in a snapshot (§7). */
export const CANDLE_SNAPSHOT_LIMIT = 500;

export interface CandleBar {
  /** bar start, ms since the epoch, a multiple of period × 1000 */
  readonly start_ts: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Σ baseAmount, 10 decimals */
  readonly volume: string;
}

export interface CandlesInput {
  /** the market's events (all pools of the pair), any order */
  readonly events: readonly SwapEvent[];
  readonly periodSeconds: number;
  /** bars starting after nowMs are not emitted */
  readonly nowMs: number;
  /** most recent bars kept (default 500) */
  readonly limit?: number;
}

/** Start of the bar holding `tsMs`: floor(ts / period) × period, in ms. */
export function computeBarStart(tsMs: number, periodSeconds: number): number {
  const p = periodSeconds * 1000;
  return Math.floor(tsMs / p) * p;
}

/**
 * Bars oldest first, at most `limit` of the most recent ones. Events ordered by (tsMs, seq) for
 * open/close. Throws `AMM_INVALID_PERIOD` for a non-positive or non-integer period.
 */
export function computeCandles(x: CandlesInput): CandleBar[] {
  if (!Number.isInteger(x.periodSeconds) || x.periodSeconds <= 0) {
    throw new AmmError(
      'AMM_INVALID_PERIOD',
      `"periodSeconds" expected a positive integer, got ${formatGot(x.periodSeconds)}`,
    );
  }
  const limit = x.limit ?? CANDLE_SNAPSHOT_LIMIT;
  const sorted = x.events.filter((e) => e.tsMs <= x.nowMs).sort((a, b) => a.tsMs - b.tsMs || a.seq - b.seq);
  const bars: { start: number; open: Dec; high: Dec; low: Dec; close: Dec; volume: Dec }[] = [];
  for (const e of sorted) {
    const start = computeBarStart(e.tsMs, x.periodSeconds);
    const p = toDec(e.priceAfter, 'priceAfter');
    const v = toDec(e.baseAmount, 'baseAmount');
    const last = bars[bars.length - 1];
    if (last !== undefined && last.start === start) {
      if (p.gt(last.high)) last.high = p;
      if (p.lt(last.low)) last.low = p;
      last.close = p;
      last.volume = last.volume.add(v);
    } else {
      bars.push({ start, open: p, high: p, low: p, close: p, volume: ZERO.add(v) });
    }
  }
  return bars.slice(Math.max(0, bars.length - Math.max(0, limit))).map((b) => ({
    start_ts: b.start,
    open: formatAmount(b.open),
    high: formatAmount(b.high),
    low: formatAmount(b.low),
    close: formatAmount(b.close),
    volume: formatAmount(b.volume),
  }));
}
