/**
 * Demo traffic on the simulated ledger (docs/protocol/api-decisions.md §5 "a traffic generator for demos"):
 * random Connect swaps — random active pool, direction, size and trader, sometimes a cross swap
 * through CC — sent through the same `transfer` path as any client. `startTraffic` runs them on a
 * timer (Poisson arrivals at `swapsPerMinute`); `prefillHistory` runs them over the trailing
 * window at simulated past instants so /stats, /volume and candles have data at start.
 * With a seeded RNG and a manual clock, the same seed gives the same swaps.
 *
 * Sizes: CC value log-uniform between 1.1 × the Connect minimum and max(that × 2, 0.5 % of the
 * pool's CC reserve); converted to the sell token at the pool's mid price and rounded DOWN.
 * Traders: 200 parties `trader-NNN::1220<SHA-256("reserve-audit/trader/NNN")>`, skewed so a few
 * trade often. Cross swaps: 15 % of swaps sell the pool's non-CC token for the non-CC token of
 * another random pool (a CC buy when that is the same token).
 */

import { formatAmount } from '../core/amm/format.js';
import { formatMemo } from '../core/amm/quote.js';
import { toDec } from '../core/amm/state-decimal.js';
import { computeReserveOf, isSameToken } from '../core/amm/swap-math.js';
import type { PoolState, TokenRef } from '../core/amm/types.js';
import { Dec, roundDown10 } from '../core/money/decimal.js';
import { ServerError } from '../errors/server.js';
import { sha256Node } from '../io/node-sha256.js';
import type { SimClock } from './clock.js';
import type { SimTransferResult } from './exchange.js';
import type { SimRng } from './rng.js';
import type { PrefillOptions, PrefillResult, SimulatedExchange } from './simulated-exchange.js';

const TRADER_COUNT = 200;
const NON_ZERO = /[1-9]/;
const traderCache = new Map<number, string>();

/** The n-th simulated trader party. */
function computeTraderParty(n: number): string {
  let p = traderCache.get(n);
  if (p === undefined) {
    const tag = String(n).padStart(3, '0');
    const hex = Buffer.from(sha256Node(new TextEncoder().encode(`reserve-audit/trader/${tag}`))).toString(
      'hex',
    );
    p = `trader-${tag}::1220${hex}`;
    traderCache.set(n, p);
  }
  return p;
}

/** Sends one random swap through `exchange.transfer`; null when no pool can trade. */
export function simulateRandomSwap(exchange: SimulatedExchange, rng: SimRng): SimTransferResult | null {
  const cc = exchange.cc();
  const all = exchange.pools();
  // reserves are non-negative 10-decimal strings: a non-zero digit means a positive reserve
  const tradable = (p: PoolState): boolean =>
    p.active && NON_ZERO.test(p.reserveA) && NON_ZERO.test(p.reserveB);
  /** a uniformly random tradable pool: rejection sampling first (O(1)), a full scan as fallback */
  const pickPool = (): PoolState | null => {
    for (let i = 0; i < 16; i++) {
      const p = all[rng.int(all.length)] as PoolState;
      if (tradable(p)) return p;
    }
    const live = all.filter(tradable);
    return live.length === 0 ? null : (live[rng.int(live.length)] as PoolState);
  };
  if (all.length === 0) return null;
  const pool = pickPool();
  if (pool === null) return null;
  const ccIsA = isSameToken(pool.tokenA, cc);
  const other: TokenRef = ccIsA ? pool.tokenB : pool.tokenA;
  let sell: TokenRef = cc;
  let buy: TokenRef = other;
  const roll = rng.float();
  if (roll < 0.15) {
    // cross swap: the non-CC token of another random tradable pool (pools weight the choice)
    const q = pickPool();
    const target = q === null ? null : isSameToken(q.tokenA, cc) ? q.tokenB : q.tokenA;
    if (target !== null && !isSameToken(target, other)) {
      sell = other;
      buy = target;
    }
  } else if (roll < 0.575) {
    sell = cc;
    buy = other;
  } else {
    sell = other;
    buy = cc;
  }
  const ccReserve = computeReserveOf(pool, cc) ?? new Dec(0);
  const otherReserve = computeReserveOf(pool, other) ?? new Dec(0);
  const minCc = toDec(exchange.policy().minConnectSwapAmountSizeCc).mul('1.1');
  const maxCc = Dec.max(minCc.mul(2), ccReserve.mul('0.005'));
  // the log-uniform factor is a random choice, drawn in floating point; the amount itself is a Dec
  const ratio = maxCc.div(minCc).toNumber();
  const factor = Math.exp(rng.float() * Math.log(ratio));
  const sizeCc = minCc.mul(new Dec(factor.toPrecision(15)));
  const amount = isSameToken(sell, cc) ? sizeCc : sizeCc.mul(otherReserve).div(ccReserve);
  const sellAmount = formatAmount(roundDown10(amount));
  const t = rng.float();
  const trader = computeTraderParty(Math.floor(TRADER_COUNT * t * t));
  const affiliate = rng.int(20) === 0 ? 'demo-affiliate' : null;
  return exchange.transfer({
    sender: trader,
    instrument: sell,
    amount: sellAmount,
    memo: formatMemo(buy.id, affiliate),
  });
}

/**
 * Fills [max(last ledger time, now − duration), now) with ~duration/60 000 × swapsPerMinute
 * random swaps at evenly spread, jittered, increasing instants.
 */
export function prefillHistory(exchange: SimulatedExchange, o: PrefillOptions): PrefillResult {
  if (!Number.isSafeInteger(o.duration) || o.duration < 0) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"duration" expected a non-negative integer of ms, got ${o.duration}`,
    );
  }
  if (!(o.swapsPerMinute >= 0) || !Number.isFinite(o.swapsPerMinute)) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"swapsPerMinute" expected a non-negative number, got ${o.swapsPerMinute}`,
    );
  }
  const toMs = exchange.nowMs();
  const fromMs = Math.max(exchange.lastLedgerTimeMs() + 1, toMs - o.duration);
  const span = toMs - fromMs;
  const n = span <= 0 ? 0 : Math.floor((span / 60_000) * o.swapsPerMinute);
  let executed = 0;
  let refunded = 0;
  let last = fromMs;
  const every = Math.max(1, Math.floor(n / 100));
  for (let i = 0; i < n; i++) {
    const at = Math.max(last, fromMs + Math.floor(((i + exchange.rng.float()) * span) / n));
    last = Math.min(at, toMs - 1);
    const r = exchange.runAt(last, () => simulateRandomSwap(exchange, exchange.rng));
    if (r?.status === 'executed') executed++;
    else if (r !== null) refunded++;
    if ((i + 1) % every === 0 || i + 1 === n) o.onProgress?.(i + 1, n);
  }
  return { executed, refunded, fromMs, toMs };
}

export interface StartTrafficOptions {
  readonly swapsPerMinute: number;
  readonly rng: SimRng;
  readonly exchange: SimulatedExchange;
  /** kept for symmetry with the exchange; swaps are stamped with the exchange's ledger time */
  readonly clock?: SimClock;
  /** timer seam (tests); default setTimeout, unref'd so it never keeps the process alive */
  readonly schedule?: (fn: () => void, ms: number) => { cancel(): void };
  /** called after each swap (e.g. logging) */
  readonly onSwap?: (r: SimTransferResult | null) => void;
}

export interface TrafficHandle {
  stop(): void;
  /** swaps sent so far */
  count(): number;
}

const defaultSchedule = (fn: () => void, ms: number): { cancel(): void } => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return { cancel: () => clearTimeout(t) };
};

/** Starts Poisson-timed random swaps; stop() cancels the next one. */
export function startTraffic(o: StartTrafficOptions): TrafficHandle {
  if (!(o.swapsPerMinute > 0) || !Number.isFinite(o.swapsPerMinute)) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"swapsPerMinute" expected a positive number, got ${o.swapsPerMinute}`,
    );
  }
  const schedule = o.schedule ?? defaultSchedule;
  const meanMs = 60_000 / o.swapsPerMinute;
  let stopped = false;
  let sent = 0;
  let pending: { cancel(): void } | null = null;
  const next = (): void => {
    if (stopped) return;
    const delay = Math.min(meanMs * 10, -Math.log(1 - o.rng.float()) * meanMs);
    pending = schedule(
      () => {
        if (stopped) return;
        let r: SimTransferResult | null = null;
        try {
          r = simulateRandomSwap(o.exchange, o.rng);
        } catch {
          r = null; // a failed demo swap must not stop the generator
        }
        sent++;
        o.onSwap?.(r);
        next();
      },
      Math.max(1, Math.round(delay)),
    );
  };
  next();
  return {
    stop: () => {
      stopped = true;
      pending?.cancel();
    },
    count: () => sent,
  };
}
