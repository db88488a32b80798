/**
 * The synthetic aggregator order book (spec/api-decisions.md §6): constant-product fill levels
 * within ±2 % of the deepest pool's mid price. For N = depth/2 levels per side, mid m, base
 * reserve X:
 *   ask i = [m(1 + 0.02 i/N), X(1/√(1 + 0.02(i−1)/N) − 1/√(1 + 0.02 i/N))]
 *   bid i = [m(1 − 0.02 i/N), X(1/√(1 − 0.02 i/N) − 1/√(1 − 0.02(i−1)/N))]
 * computed at 80 digits, then converted to the nearest JSON number.
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import { Dec, ONE, toDec } from './decimal.js';
import { computeMidPriceExact } from './swap-math.js';
import type { PoolState } from './types.js';

export const ORDERBOOK_DEFAULT_DEPTH = 100;
export const ORDERBOOK_MAX_DEPTH = 200;
/** ±2 % band */
export const ORDERBOOK_BAND = '0.02';

/** [price, base amount] */
export type OrderbookLevel = readonly [number, number];

export interface Orderbook {
  readonly ticker_id: string;
  readonly timestamp: number;
  readonly bids: readonly OrderbookLevel[];
  readonly asks: readonly OrderbookLevel[];
}

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
  for (let i = 1; i <= n; i++) {
    const up = ONE.add(step(i));
    const upPrev = ONE.add(step(i - 1));
    asks.push([m.mul(up), x.mul(invSqrt(upPrev).sub(invSqrt(up)))]);
    const down = ONE.sub(step(i));
    const downPrev = ONE.sub(step(i - 1));
    bids.push([m.mul(down), x.mul(invSqrt(down).sub(invSqrt(downPrev)))]);
  }
  return { bids, asks };
}

/**
 * GET /aggregator/orderbook body: `{ticker_id, timestamp, bids, asks}`; bids by falling price, asks
 * by rising price; empty sides while the pool has no reserves. Throws `AMM_INVALID_DEPTH` for a
 * depth that is not an even integer 2..200.
 */
export function computeOrderbook(x: OrderbookInput): Orderbook {
  const depth = x.depth ?? ORDERBOOK_DEFAULT_DEPTH;
  if (!Number.isInteger(depth) || depth < 2 || depth > ORDERBOOK_MAX_DEPTH || depth % 2 !== 0) {
    throw new AmmError(
      'AMM_INVALID_DEPTH',
      `"depth" expected an even integer from 2 to 200, got ${formatGot(depth)}`,
    );
  }
  const levels = computeOrderbookLevels(x.pool, depth);
  const num = ([p, a]: [Dec, Dec]): OrderbookLevel => [p.toNumber(), a.toNumber()];
  return {
    ticker_id: x.tickerId,
    timestamp: x.nowMs,
    bids: levels.bids.map(num),
    asks: levels.asks.map(num),
  };
}
