/**
 * The synthetic aggregator order book (docs/protocol/api-decisions.md §6): constant-product fill levels
 * within ±2 % of the deepest pool's mid price. For N = depth/2 levels per side, mid m, base
 * reserve X:
 *   ask i = [m(1 + 0.02 i/N), X(1/√(1 + 0.02(i−1)/N) − 1/√(1 + 0.02 i/N))]
 *   bid i = [m(1 − 0.02 i/N), X(1/√(1 − 0.02 i/N) − 1/√(1 − 0.02(i−1)/N))]
 * `computeOrderbookLevels` evaluates them exactly (80 digits, for audits and tests);
 * `computeOrderbook` (the response, plain JSON numbers) evaluates them in binary64 with a
 * cancellation-free form, within a few ulps of the exact values (docs/decisions/amm.md).
 * The response is the wire type `AggregatorOrderbook` (src/core/wire/aggregator.ts).
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { Dec, ONE } from '../money/decimal.js';
import type { AggregatorOrderbook, OrderbookLevel } from '../wire/aggregator.js';
import { toDec } from './state-decimal.js';
import { computeMidPriceExact } from './swap-math.js';
import type { PoolState } from './types.js';

const ORDERBOOK_DEFAULT_DEPTH = 100;
const ORDERBOOK_MAX_DEPTH = 200;
/** ±2 % band */
const ORDERBOOK_BAND = '0.02';

/**
 * Parses the `depth` query parameter: absent → 100; else an even integer 2..200 written in plain
 * digits. Throws `AMM_INVALID_DEPTH`.
 */
export function parseOrderbookDepth(text: string | undefined | null): number {
  if (text === undefined || text === null) return ORDERBOOK_DEFAULT_DEPTH;
  const ok = /^\d{1,3}$/.test(text);
  const n = ok ? Number(text) : Number.NaN;
  if (!ok || n < 2 || n > ORDERBOOK_MAX_DEPTH || n % 2 !== 0) {
    throw new AmmError(
      'AMM_INVALID_DEPTH',
      `"depth" expected an even integer from 2 to 200, got ${formatGot(text)}`,
    );
  }
  return n;
}

export interface OrderbookInput {
  /** the deepest pool of the pair */
  readonly pool: PoolState;
  readonly tickerId: string;
  /** even, 2..200 (use parseOrderbookDepth); default 100 */
  readonly depth?: number;
  readonly nowMs: number;
}

/** Exact level values (Dec) — what the JSON numbers are rounded from; for audits. */
export function computeOrderbookLevels(
  pool: Pick<PoolState, 'reserveA' | 'reserveB'>,
  depth: number,
): { bids: [Dec, Dec][]; asks: [Dec, Dec][] } {
  const m = computeMidPriceExact(pool);
  if (m === null) return { bids: [], asks: [] };
  const x = toDec(pool.reserveA, 'reserveA');
  const n = depth / 2;
  const band = new Dec(ORDERBOOK_BAND);
  const step = (i: number): Dec => band.mul(i).div(n);
  const invSqrt = (d: Dec): Dec => ONE.div(d.sqrt());
  const asks: [Dec, Dec][] = [];
  const bids: [Dec, Dec][] = [];
  // level i − 1's 1/√ is level i's "previous" one: one square root per level and side
  let invUpPrev = ONE;
  let invDownPrev = ONE;
  for (let i = 1; i <= n; i++) {
    const up = ONE.add(step(i));
    const invUp = invSqrt(up);
    asks.push([m.mul(up), x.mul(invUpPrev.sub(invUp))]);
    const down = ONE.sub(step(i));
    const invDown = invSqrt(down);
    bids.push([m.mul(down), x.mul(invDown.sub(invDownPrev))]);
    invUpPrev = invUp;
    invDownPrev = invDown;
  }
  return { bids, asks };
}

/**
 * The same levels as JSON numbers, in binary64. No catastrophic cancellation: with
 * a = 1 ± 0.02(i−1)/N and b = 1 ± 0.02 i/N (so |b − a| = δ = 0.02/N exactly),
 *   1/√a − 1/√b = δ / (√a·√b·(√a + √b)),
 * so each amount is within a few ulps (relative ≈ 1e-15) of the exact value, and each price
 * m(1 ± 0.02 i/N) within ~2 ulps (m is the correctly rounded binary64 of reserve_b / reserve_a).
 * Display values only ("may lose precision"), never money.
 */
export function computeOrderbookNumbers(
  pool: Pick<PoolState, 'reserveA' | 'reserveB'>,
  depth: number,
): { bids: OrderbookLevel[]; asks: OrderbookLevel[] } {
  const mid = computeMidPriceExact(pool);
  if (mid === null) return { bids: [], asks: [] };
  const m = mid.toNumber();
  const x = Number(toDec(pool.reserveA, 'reserveA').toFixed());
  const n = depth / 2;
  const denom = 100 * n; // 0.02 i/N = 2i/(100N): one correctly rounded division
  const delta = 2 / denom;
  const asks: OrderbookLevel[] = [];
  const bids: OrderbookLevel[] = [];
  let sUpPrev = 1;
  let sDownPrev = 1;
  for (let i = 1; i <= n; i++) {
    const frac = (2 * i) / denom;
    const up = 1 + frac;
    const down = 1 - frac;
    const sUp = Math.sqrt(up);
    const sDown = Math.sqrt(down);
    asks.push([m * up, (x * delta) / (sUpPrev * sUp * (sUpPrev + sUp))]);
    bids.push([m * down, (x * delta) / (sDownPrev * sDown * (sDownPrev + sDown))]);
    sUpPrev = sUp;
    sDownPrev = sDown;
  }
  return { bids, asks };
}

/**
 * GET /aggregator/orderbook body: `{ticker_id, timestamp, bids, asks}`; bids by falling price, asks
 * by rising price; empty sides while the pool has no reserves. Throws `AMM_INVALID_DEPTH` for a
 * depth that is not an even integer 2..200.
 */
export function computeOrderbook(x: OrderbookInput): AggregatorOrderbook {
  const depth = x.depth ?? ORDERBOOK_DEFAULT_DEPTH;
  if (!Number.isInteger(depth) || depth < 2 || depth > ORDERBOOK_MAX_DEPTH || depth % 2 !== 0) {
    throw new AmmError(
      'AMM_INVALID_DEPTH',
      `"depth" expected an even integer from 2 to 200, got ${formatGot(depth)}`,
    );
  }
  const levels = computeOrderbookNumbers(x.pool, depth);
  return { ticker_id: x.tickerId, timestamp: x.nowMs, bids: levels.bids, asks: levels.asks };
}
