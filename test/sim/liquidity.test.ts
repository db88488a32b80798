/** Adding and removing liquidity (docs/protocol/api-decisions.md §5; rounding in src/sim/liquidity.ts). */
import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/money/decimal.js';
import { computeLiquidityAdd, computeLiquidityRemove } from '../../src/sim/liquidity.js';
import { openTestLedger, TRADER } from './helpers.js';

describe('liquidity math', () => {
  const pool = { reserveA: '1000.0000000000', reserveB: '3000.0000000000', totalLpSupply: '1732.0508075688' };

  it('first deposit mints √(a·b) rounded down and takes everything', () => {
    const c = computeLiquidityAdd(
      { reserveA: '0', reserveB: '0', totalLpSupply: '0' },
      new Dec(2),
      new Dec(8),
    );
    expect(c.lpAmount.toFixed(10)).toBe('4.0000000000');
    expect([c.amountA.toFixed(), c.amountB.toFixed()]).toEqual(['2', '8']);
  });

  it('a later deposit mints the smaller share, takes at most what is offered, never dilutes LP units', () => {
    const c = computeLiquidityAdd(pool, new Dec('10'), new Dec('100'));
    expect(c.amountA.eq(10)).toBe(true);
    expect(c.amountB.lte(100)).toBe(true);
    // minted is rounded down, so the deposit taken is a hair under the exact 1:3 ratio, rounded up
    expect(c.amountB.toFixed(10)).toBe('29.9999999999');
    expect(
      c.amountB.eq(c.lpAmount.mul(pool.reserveB).div(pool.totalLpSupply).toDecimalPlaces(10, Dec.ROUND_UP)),
    ).toBe(true);
    expect(c.lpAmount.toFixed(10)).toBe(
      new Dec('10').mul(pool.totalLpSupply).div(1000).toFixed(10, Dec.ROUND_DOWN),
    );
    const before = new Dec(pool.reserveA).div(pool.totalLpSupply);
    expect(c.newReserveA.div(c.newTotalLpSupply).gte(before)).toBe(true);
    expect(c.newReserveB.div(c.newTotalLpSupply).gte(new Dec(pool.reserveB).div(pool.totalLpSupply))).toBe(
      true,
    );
  });

  it('a withdrawal pays out pro rata rounded down', () => {
    const c = computeLiquidityRemove(pool, new Dec('17.3205080757'));
    expect(c.amountA.toFixed(10)).toBe(
      new Dec('17.3205080757').mul(1000).div(pool.totalLpSupply).toFixed(10, Dec.ROUND_DOWN),
    );
    expect(c.newReserveA.add(c.amountA).eq(pool.reserveA)).toBe(true);
    expect(() => computeLiquidityRemove(pool, new Dec('1732.0508075689'))).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
  });

  it('a deposit too small to mint anything is refused', () => {
    expect(() => computeLiquidityAdd(pool, new Dec('0.0000000001'), new Dec('0.0000000001'))).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
  });
});

describe('liquidity on the ledger', () => {
  it('add then remove: new contracts, positions, events, listeners', () => {
    const { exchange: ex, db } = openTestLedger({ seed: 'liq' });
    const pool = ex.pools().find((p) => p.tokenA.id === 'MOD')!;
    const seen: string[] = [];
    ex.onChange((c) => seen.push(c.type));
    const added = ex.addLiquidity(pool.poolId, '2000', '1000', TRADER);
    expect(added.sequence).toBe(pool.sequence + 1n);
    const inA = new Dec(added.reserveA).sub(pool.reserveA);
    const inB = new Dec(added.reserveB).sub(pool.reserveB);
    expect(inA.lte(2000) && inA.gt('1999.999999')).toBe(true);
    expect(inB.lte(1000) && inB.gt('999.999999')).toBe(true);
    const minted = new Dec(added.totalLpSupply).sub(pool.totalLpSupply);
    expect(minted.gt(0)).toBe(true);
    expect(() => ex.removeLiquidity(pool.poolId, minted.add('0.0000000001').toFixed(10), TRADER)).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
    const removed = ex.removeLiquidity(pool.poolId, minted.toFixed(10), TRADER);
    expect(removed.totalLpSupply).toBe(pool.totalLpSupply);
    // the provider gets back at most what it put in (rounding favours the pool)
    expect(new Dec(removed.reserveA).gte(pool.reserveA)).toBe(true);
    expect(new Dec(removed.reserveB).gte(pool.reserveB)).toBe(true);
    expect(seen).toEqual(['liquidity', 'liquidity']);
    const kinds = db.prepare('SELECT kind, provider FROM liquidity_events ORDER BY seq').all();
    expect(kinds).toEqual([
      { kind: 'add', provider: TRADER },
      { kind: 'remove', provider: TRADER },
    ]);
    expect(ex.reserveContracts(pool.poolId, 10).map((c) => c.sequence)).toEqual([2n, 1n, 0n]);
  });

  it('rejects bad input with typed errors and leaves the pool untouched', () => {
    const { exchange: ex } = openTestLedger({ seed: 'liq-bad' });
    const pool = ex.pools()[0]!;
    expect(() => ex.addLiquidity('nope', '1', '1', TRADER)).toThrow(
      expect.objectContaining({ code: 'POOL_NOT_FOUND' }),
    );
    expect(() => ex.addLiquidity(pool.poolId, '-1', '1', TRADER)).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
    expect(() => ex.addLiquidity(pool.poolId, '1e3', '1', TRADER)).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
    expect(() => ex.removeLiquidity(pool.poolId, '1', TRADER)).toThrow(
      expect.objectContaining({ code: 'LIQUIDITY_AMOUNT_INVALID' }),
    );
    expect(ex.pools()[0]).toBe(pool);
  });

  it('the operator holds the opening LP supply and can withdraw part of it', () => {
    const { exchange: ex } = openTestLedger({ seed: 'liq-op' });
    const pool = ex.pools()[0]!;
    const after = ex.removeLiquidity(pool.poolId, '1000', ex.operatorParty());
    expect(new Dec(pool.totalLpSupply).sub(after.totalLpSupply).toFixed(10)).toBe('1000.0000000000');
  });
});

describe('retiring a pool', () => {
  it('archives its contract without successor, makes it inactive, and survives a swap attempt', () => {
    const { exchange: ex } = openTestLedger({ seed: 'retire' });
    const pool = ex.pools().find((p) => p.tokenA.id === 'CTX')!;
    const retired = ex.retirePool(pool.poolId);
    expect(retired.active).toBe(false);
    expect(retired.reserveContract).toEqual(pool.reserveContract);
    const rows = ex.reserveContracts(pool.poolId, 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.archivedBy).toMatch(/^1220[0-9a-f]{64}$/);
    expect(ex.pools().find((p) => p.poolId === pool.poolId)!.active).toBe(false);
    const r = ex.transfer({ sender: TRADER, instrument: ex.cc(), amount: '100', memo: 'CTX' });
    expect(r.status === 'refunded' && r.reason).toBe('memo names no reachable token');
    expect(() => ex.retirePool(pool.poolId)).toThrow(expect.objectContaining({ code: 'POOL_INACTIVE' }));
    expect(() => ex.addLiquidity(pool.poolId, '1', '1', TRADER)).toThrow(
      expect.objectContaining({ code: 'POOL_INACTIVE' }),
    );
  });
});
