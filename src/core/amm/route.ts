/**
 * Routing and CC valuation (docs/protocol/api-decisions.md §2, §4): direct through the deepest pool of the
 * pair, else two hops through CC with the deepest pool on each leg. "Deepest" = largest CC-side
 * reserve; ties go to the smaller pool_id (string order) so the choice is deterministic.
 */
import type { Dec } from '../money/decimal.js';
import { cmpFx, divFx, type Fixed, FX_ZERO, fixedToDec, mulFx, toFx } from './exact.js';
import { computeReserveOfExact, isSameToken, parsePoolExact } from './swap-math.js';
import type { PoolState, TokenRef } from './types.js';

/** One hop of a route: which pool, what goes in, what comes out. */
export interface RouteHop {
  readonly pool: PoolState;
  readonly sell: TokenRef;
  readonly buy: TokenRef;
}

export interface Route {
  /** one hop (direct) or two (sell → CC → buy) */
  readonly hops: readonly RouteHop[];
}

/** Active pools that hold both tokens. */
function poolsOfPair(pools: readonly PoolState[], x: TokenRef, y: TokenRef): PoolState[] {
  return pools.filter(
    (p) =>
      p.active &&
      ((isSameToken(p.tokenA, x) && isSameToken(p.tokenB, y)) ||
        (isSameToken(p.tokenA, y) && isSameToken(p.tokenB, x))),
  );
}

/**
 * The deepest active pool among `pools` (largest CC-side reserve; ties: smallest pool_id), or null.
 */
export function findDeepestPool(pools: readonly PoolState[], cc: TokenRef): PoolState | null {
  let best: PoolState | null = null;
  let bestDepth: Fixed | null = null;
  for (const p of pools) {
    if (!p.active) continue;
    const depth = computeReserveOfExact(p, parsePoolExact(p), cc) ?? FX_ZERO;
    const c = bestDepth === null ? 1 : cmpFx(depth, bestDepth);
    if (best === null || c > 0 || (c === 0 && p.poolId < best.poolId)) {
      best = p;
      bestDepth = depth;
    }
  }
  return best;
}

/** The deepest active pool serving the pair (x, y) in either orientation, or null. */
function findPairPool(pools: readonly PoolState[], x: TokenRef, y: TokenRef, cc: TokenRef): PoolState | null {
  return findDeepestPool(poolsOfPair(pools, x, y), cc);
}

/**
 * Route from `sell` to `buy` (§4): the deepest direct pool if one exists, else sell → CC → buy
 * through the deepest pool of each leg; null if neither exists or sell = buy.
 */
export function findRoute(
  pools: readonly PoolState[],
  sell: TokenRef,
  buy: TokenRef,
  cc: TokenRef,
): Route | null {
  if (isSameToken(sell, buy)) return null;
  const direct = findPairPool(pools, sell, buy, cc);
  if (direct !== null) return { hops: [{ pool: direct, sell, buy }] };
  if (isSameToken(sell, cc) || isSameToken(buy, cc)) return null;
  const first = findPairPool(pools, sell, cc, cc);
  const second = findPairPool(pools, cc, buy, cc);
  if (first === null || second === null) return null;
  return {
    hops: [
      { pool: first, sell, buy: cc },
      { pool: second, sell: cc, buy },
    ],
  };
}

/** Whether any active pool holds `token`. */
export function isTokenInPools(pools: readonly PoolState[], token: TokenRef): boolean {
  return pools.some((p) => p.active && (isSameToken(p.tokenA, token) || isSameToken(p.tokenB, token)));
}

/**
 * CC value of `amount` of `token` (§4 minimum, §4 fee waiver, §2 fee valuation): CC itself as is,
 * else amount × (CC per token) at the mid price of the token's deepest CC pool, HALF-UP to 10
 * places. null when the token has no CC pool or that pool has an empty reserve.
 */
export function computeCcValue(
  amount: Dec | string,
  token: TokenRef,
  pools: readonly PoolState[],
  cc: TokenRef,
): Dec | null {
  const v = computeCcValueFx(toFx(amount, 'amount'), token, pools, cc);
  return v === null ? null : fixedToDec(v);
}

/** `computeCcValue` on an exact amount (same rule and rounding). */
export function computeCcValueFx(
  amount: Fixed,
  token: TokenRef,
  pools: readonly PoolState[],
  cc: TokenRef,
): Fixed | null {
  if (isSameToken(token, cc)) return amount;
  const pool = findPairPool(pools, token, cc, cc);
  if (pool === null) return null;
  const e = parsePoolExact(pool);
  const rToken = computeReserveOfExact(pool, e, token);
  const rCc = computeReserveOfExact(pool, e, cc);
  if (rToken === null || rCc === null || rToken.n <= 0n || rCc.n <= 0n) return null;
  return divFx(mulFx(amount, rCc), rToken, 'half-up');
}
