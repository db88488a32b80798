/**
 * The swap-event log with the indexes that make the market-data windows cost O(log n) whatever the
 * length of the history (issue 11): /stats, /volume, the aggregator tickers and the websocket
 * ticker read windowed sums, counts, distinct traders, execution-time counts and per-pool high/low
 * from here instead of re-reading every event of their window on each request.
 *
 * Append-only, in time order (the ledger's events are). Kept per event, updated on append:
 * prefix sums of the 10-place amounts as bigint (exact: the same totals decimal.js gives when it
 * adds the strings, which it does exactly at 80 digits), the positions of each execution-time
 * value, a distinct-key counter over traders, and per pool the positions, prefix sums of base /
 * quote / CC volume and a range max/min of `priceAfter`. If an event breaks an assumption (an
 * amount with more than 10 places, a timestamp before the previous one), `isExact()` turns false
 * for good and callers fall back to scanning `slice()` (the reference computations in stats.ts,
 * volume.ts, tickers.ts, which the differential tests compare against).
 */
import { AmmError } from '../../errors/amm.js';
import { Dec } from '../money/decimal.js';
import { DistinctCounter } from './distinct-counter.js';
import { RangeExtremes } from './range-extremes.js';
import type { SwapEvent } from './types.js';

const SCALED = /^(-?)(\d+)(?:\.(\d{1,10}))?$/;
const TEN_PLACES = 10n ** 10n;

/** A 10-place decimal string as an integer count of 10⁻¹⁰; null when it is not one. */
function parseScaled(s: string): bigint | null {
  const m = SCALED.exec(s);
  if (m === null) return null;
  const v = BigInt(m[2] ?? '0') * TEN_PLACES + BigInt((m[3] ?? '').padEnd(10, '0'));
  return m[1] === '-' ? -v : v;
}

/** An integer count of 10⁻¹⁰ as a decimal string with exactly 10 places ("0.0000000000" for zero). */
export function formatScaledAmount(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const s = `${a / TEN_PLACES}.${(a % TEN_PLACES).toString().padStart(10, '0')}`;
  return neg && a !== 0n ? `-${s}` : s;
}

/** Sums over a window, in 10⁻¹⁰ units. */
export interface SwapWindowTotals {
  readonly count: number;
  readonly volumeCc: bigint;
  readonly lpFeeCc: bigint;
  readonly protocolFeeCc: bigint;
  readonly executionSeconds: bigint;
}

/** One pool's activity over a window (sums in 10⁻¹⁰ units; high/low of `priceAfter`). */
export interface PoolWindowActivity {
  readonly count: number;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly volumeCc: bigint;
  readonly high: Dec | null;
  readonly low: Dec | null;
}

/** The read side (what the exchange view hands to the routes). */
export interface SwapEventLog {
  readonly length: number;
  /** false once an event broke the index's assumptions: use `slice` and the scanning computations */
  isExact(): boolean;
  /** events with fromMs ≤ tsMs < toMs, oldest first */
  slice(fromMs: number, toMs: number): readonly SwapEvent[];
  totals(fromMs: number, toMs: number): SwapWindowTotals;
  /** distinct traders with a swap in [fromMs, toMs) */
  countTraders(fromMs: number, toMs: number): number;
  /** how many swaps of [fromMs, toMs) took each execution time, ascending by time, counts > 0 */
  executionSecondsCounts(fromMs: number, toMs: number): readonly { seconds: Dec; count: number }[];
  poolActivity(poolId: string, fromMs: number, toMs: number): PoolWindowActivity;
  /** the earliest event of these pools in [fromMs, toMs) */
  firstEvent(poolIds: ReadonlySet<string>, fromMs: number, toMs: number): SwapEvent | undefined;
}

interface PoolSeries {
  readonly ts: number[];
  /** each event's position in the whole log */
  readonly at: number[];
  readonly base: bigint[];
  readonly quote: bigint[];
  readonly volume: bigint[];
  readonly prices: RangeExtremes<Dec>;
}

interface SecondsValue {
  readonly seconds: Dec;
  readonly positions: number[];
}

function lowerBound(ts: readonly number[], tsMs: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ts[mid] ?? 0) < tsMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const at = (xs: readonly bigint[], i: number): bigint => xs[i] ?? 0n;

export class SwapEventIndex implements SwapEventLog {
  readonly #events: SwapEvent[] = [];
  readonly #ts: number[] = [];
  /** prefix sums: [k] = Σ of events [0, k) */
  readonly #volume: bigint[] = [0n];
  readonly #lp: bigint[] = [0n];
  readonly #protocol: bigint[] = [0n];
  readonly #seconds: bigint[] = [0n];
  readonly #bySeconds = new Map<bigint, SecondsValue>();
  /** #bySeconds' keys ascending */
  readonly #secondsOrder: bigint[] = [];
  readonly #traders = new DistinctCounter();
  readonly #pools = new Map<string, PoolSeries>();
  #exact = true;

  constructor(events: Iterable<SwapEvent> = []) {
    for (const e of events) this.append(e);
  }

  get length(): number {
    return this.#events.length;
  }

  isExact(): boolean {
    return this.#exact;
  }

  append(e: SwapEvent): void {
    const i = this.#events.length;
    if (i > 0 && e.tsMs < (this.#ts[i - 1] ?? 0)) this.#exact = false;
    this.#events.push(e);
    this.#ts.push(e.tsMs);
    if (!this.#exact) return;
    const volume = parseScaled(e.volumeCc);
    const lp = parseScaled(e.lpFeeCc);
    const protocol = parseScaled(e.protocolFeeCc);
    const seconds = parseScaled(e.executionSeconds);
    const base = parseScaled(e.baseAmount);
    const quote = parseScaled(e.quoteAmount);
    if (
      volume === null ||
      lp === null ||
      protocol === null ||
      seconds === null ||
      base === null ||
      quote === null ||
      !/^-?\d+(\.\d+)?$/.test(e.priceAfter)
    ) {
      this.#exact = false;
      return;
    }
    this.#volume.push(at(this.#volume, i) + volume);
    this.#lp.push(at(this.#lp, i) + lp);
    this.#protocol.push(at(this.#protocol, i) + protocol);
    this.#seconds.push(at(this.#seconds, i) + seconds);
    let sv = this.#bySeconds.get(seconds);
    if (sv === undefined) {
      sv = { seconds: new Dec(formatScaledAmount(seconds)), positions: [] };
      this.#bySeconds.set(seconds, sv);
      // insert in order (a new value is rare once the log is warm: the set of values is small)
      let k = this.#secondsOrder.length;
      while (k > 0 && (this.#secondsOrder[k - 1] ?? 0n) > seconds) k--;
      this.#secondsOrder.splice(k, 0, seconds);
    }
    sv.positions.push(i);
    this.#traders.push(e.trader);
    let p = this.#pools.get(e.poolId);
    if (p === undefined) {
      p = {
        ts: [],
        at: [],
        base: [0n],
        quote: [0n],
        volume: [0n],
        prices: new RangeExtremes<Dec>((a, b) => a.cmp(b)),
      };
      this.#pools.set(e.poolId, p);
    }
    const k = p.ts.length;
    p.ts.push(e.tsMs);
    p.at.push(i);
    p.base.push(at(p.base, k) + base);
    p.quote.push(at(p.quote, k) + quote);
    p.volume.push(at(p.volume, k) + volume);
    p.prices.push(new Dec(e.priceAfter));
  }

  slice(fromMs: number, toMs: number): readonly SwapEvent[] {
    if (toMs <= fromMs) return [];
    if (!this.#exact) return this.#events.filter((e) => e.tsMs >= fromMs && e.tsMs < toMs);
    return this.#events.slice(lowerBound(this.#ts, fromMs), lowerBound(this.#ts, toMs));
  }

  totals(fromMs: number, toMs: number): SwapWindowTotals {
    const [a, b] = this.#range(fromMs, toMs);
    return {
      count: b - a,
      volumeCc: at(this.#volume, b) - at(this.#volume, a),
      lpFeeCc: at(this.#lp, b) - at(this.#lp, a),
      protocolFeeCc: at(this.#protocol, b) - at(this.#protocol, a),
      executionSeconds: at(this.#seconds, b) - at(this.#seconds, a),
    };
  }

  countTraders(fromMs: number, toMs: number): number {
    if (!this.#exact) return new Set(this.slice(fromMs, toMs).map((e) => e.trader)).size;
    const [a, b] = this.#range(fromMs, toMs);
    return this.#traders.count(a, b);
  }

  executionSecondsCounts(fromMs: number, toMs: number): readonly { seconds: Dec; count: number }[] {
    const [a, b] = this.#range(fromMs, toMs);
    const out: { seconds: Dec; count: number }[] = [];
    if (a >= b) return out;
    for (const key of this.#secondsOrder) {
      const v = this.#bySeconds.get(key);
      if (v === undefined) continue;
      const count = lowerBound(v.positions, b) - lowerBound(v.positions, a);
      if (count > 0) out.push({ seconds: v.seconds, count });
    }
    return out;
  }

  poolActivity(poolId: string, fromMs: number, toMs: number): PoolWindowActivity {
    const p = this.#pools.get(poolId);
    this.#assertExact();
    const a = p === undefined || toMs <= fromMs ? 0 : lowerBound(p.ts, fromMs);
    const b = p === undefined || toMs <= fromMs ? 0 : Math.max(a, lowerBound(p.ts, toMs));
    const ext = p?.prices.query(a, b);
    return {
      count: b - a,
      baseAmount: p === undefined ? 0n : at(p.base, b) - at(p.base, a),
      quoteAmount: p === undefined ? 0n : at(p.quote, b) - at(p.quote, a),
      volumeCc: p === undefined ? 0n : at(p.volume, b) - at(p.volume, a),
      high: ext?.max ?? null,
      low: ext?.min ?? null,
    };
  }

  firstEvent(poolIds: ReadonlySet<string>, fromMs: number, toMs: number): SwapEvent | undefined {
    if (!this.#exact) return this.slice(fromMs, toMs).find((e) => poolIds.has(e.poolId));
    if (toMs <= fromMs) return undefined;
    let first = -1;
    for (const id of poolIds) {
      const p = this.#pools.get(id);
      if (p === undefined) continue;
      const a = lowerBound(p.ts, fromMs);
      const pos = p.at[a];
      if (pos === undefined || (p.ts[a] ?? toMs) >= toMs) continue;
      if (first < 0 || pos < first) first = pos;
    }
    return first < 0 ? undefined : this.#events[first];
  }

  /** positions [a, b) of the events in [fromMs, toMs) */
  #range(fromMs: number, toMs: number): [number, number] {
    this.#assertExact();
    if (toMs <= fromMs) return [0, 0];
    return [lowerBound(this.#ts, fromMs), lowerBound(this.#ts, toMs)];
  }

  #assertExact(): void {
    if (!this.#exact)
      throw new AmmError(
        'AMM_EVENT_INDEX_INEXACT',
        'the swap-event index expected 10-place amounts in time order, got an event that is not: scan slice() instead',
      );
  }
}
