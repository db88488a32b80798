/**
 * Adding and removing liquidity on the simulated ledger (docs/protocol/api-decisions.md §5). Each call is one
 * ledger update (kind `liquidity_add` / `liquidity_remove`): the pool's reserve contract is
 * archived and re-created with the new reserves and LP supply, a liquidity event is recorded and
 * the provider's LP position is updated. Math and rounding: ./liquidity.ts. Also retiring a pool
 * (kind `retire`): its contract is archived without a successor and the pool becomes inactive.
 */

import { formatAmount } from '../core/amm/format.js';
import type { Amount, PoolState } from '../core/amm/types.js';
import { Dec } from '../core/money/decimal.js';
import { formatGot } from '../errors/base.js';
import { ServerError } from '../errors/server.js';
import type { LedgerContext } from './ledger-context.js';
import { computeLiquidityAdd, computeLiquidityRemove, type LiquidityChange } from './liquidity.js';

const PLAIN_AMOUNT = /^\d{1,28}(\.\d{1,10})?$/;

function parsePositive(field: string, v: Amount): Dec {
  if (typeof v !== 'string' || !PLAIN_AMOUNT.test(v) || !new Dec(v).gt(0)) {
    throw new ServerError(
      'LIQUIDITY_AMOUNT_INVALID',
      `"${field}" expected a positive decimal string with at most 10 decimals, got ${formatGot(v)}`,
    );
  }
  return new Dec(v);
}

function activePool(ctx: LedgerContext, poolId: string): PoolState {
  const pool = ctx.pool(poolId);
  if (!pool.active)
    throw new ServerError('POOL_INACTIVE', `"poolId" expected an active pool, got ${JSON.stringify(poolId)}`);
  return pool;
}

function assertProvider(provider: string): void {
  if (typeof provider !== 'string' || provider.length === 0) {
    throw new ServerError(
      'LIQUIDITY_AMOUNT_INVALID',
      `"provider" expected a party id, got ${formatGot(provider)}`,
    );
  }
}

function apply(
  ctx: LedgerContext,
  pool: PoolState,
  change: LiquidityChange,
  kind: 'add' | 'remove',
  provider: string,
  newPosition: Dec,
): PoolState {
  const ms = ctx.ledgerTimeMs();
  const state = ctx.store.transaction(() => {
    const updateId = ctx.beginUpdate(kind === 'add' ? 'liquidity_add' : 'liquidity_remove', ms);
    const micros = ctx.nextCreatedAtMicros(ms);
    const next = ctx.replaceReserve(pool, updateId, micros, {
      reserveA: change.newReserveA,
      reserveB: change.newReserveB,
      totalLpSupply: change.newTotalLpSupply,
    });
    ctx.store.insertLiquidityEvent({
      tsMs: ms,
      updateId,
      poolId: pool.poolId,
      provider,
      kind,
      amountA: formatAmount(change.amountA),
      amountB: formatAmount(change.amountB),
      lpAmount: formatAmount(change.lpAmount),
    });
    ctx.store.setLpPosition(pool.poolId, provider, formatAmount(newPosition));
    ctx.saveMeta(ms);
    return next.state;
  });
  ctx.commitPools([state], ms);
  ctx.emit({ type: 'liquidity', pool: state });
  return state;
}

/** Deposits up to (amountA, amountB); returns the new pool state. */
export function addLiquidityTo(
  ctx: LedgerContext,
  poolId: string,
  amountA: Amount,
  amountB: Amount,
  provider: string,
): PoolState {
  assertProvider(provider);
  const pool = activePool(ctx, poolId);
  const change = computeLiquidityAdd(
    pool,
    parsePositive('amountA', amountA),
    parsePositive('amountB', amountB),
  );
  const held = new Dec(ctx.store.getLpPosition(poolId, provider) ?? '0');
  return apply(ctx, pool, change, 'add', provider, held.add(change.lpAmount));
}

/** Burns `lpAmount` of the provider's LP units; returns the new pool state. */
export function removeLiquidityFrom(
  ctx: LedgerContext,
  poolId: string,
  lpAmount: Amount,
  provider: string,
): PoolState {
  assertProvider(provider);
  const pool = activePool(ctx, poolId);
  const lp = parsePositive('lpAmount', lpAmount);
  const held = new Dec(ctx.store.getLpPosition(poolId, provider) ?? '0');
  if (lp.gt(held)) {
    throw new ServerError(
      'LIQUIDITY_AMOUNT_INVALID',
      `"lpAmount" expected at most the provider's position ${formatAmount(held)}, got ${formatGot(lpAmount)}`,
    );
  }
  const change = computeLiquidityRemove(pool, lp);
  return apply(ctx, pool, change, 'remove', provider, held.sub(lp));
}

/**
 * Replaces a pool's reserve contract with one holding `reserveA`/`reserveB` and the same LP supply, in
 * one ledger update (see SimulatedExchange.moveReserves): no provider, no liquidity event.
 */
export function moveReservesIn(
  ctx: LedgerContext,
  poolId: string,
  reserveA: Amount,
  reserveB: Amount,
): PoolState {
  const pool = activePool(ctx, poolId);
  const a = parsePositive('reserveA', reserveA);
  const b = parsePositive('reserveB', reserveB);
  const ms = ctx.ledgerTimeMs();
  const state = ctx.store.transaction(() => {
    const down = a.lt(new Dec(pool.reserveA));
    const updateId = ctx.beginUpdate(down ? 'liquidity_remove' : 'liquidity_add', ms);
    const next = ctx.replaceReserve(pool, updateId, ctx.nextCreatedAtMicros(ms), {
      reserveA: a,
      reserveB: b,
      totalLpSupply: pool.totalLpSupply,
    });
    ctx.saveMeta(ms);
    return next.state;
  });
  ctx.commitPools([state], ms);
  ctx.emit({ type: 'liquidity', pool: state });
  return state;
}

/** Retires an active pool (see SimulatedExchange.retirePool). */
export function retirePoolIn(ctx: LedgerContext, poolId: string): PoolState {
  const pool = activePool(ctx, poolId);
  const ms = ctx.ledgerTimeMs();
  const retired: PoolState = { ...pool, active: false };
  ctx.store.transaction(() => {
    const updateId = ctx.beginUpdate('retire', ms);
    ctx.store.archiveReserveContract(pool.reserveContract.contractId, updateId);
    ctx.store.setPoolCurrent(pool.poolId, pool.reserveContract.contractId, false);
    ctx.saveMeta(ms);
  });
  ctx.commitPools([retired], ms);
  ctx.emit({ type: 'liquidity', pool: retired });
  return retired;
}
