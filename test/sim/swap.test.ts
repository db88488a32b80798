/**
 * Connect swap execution (docs/protocol/api-decisions.md §5): the ledger applies exactly the plan the quote
 * computes, k never decreases, events and payouts follow the plan; bad transfers are refunded.
 */
import { describe, expect, it } from 'vitest';
import { quoteConnectSwap } from '../../src/core/amm/quote.js';
import type { PoolState } from '../../src/core/amm/types.js';
import { Dec } from '../../src/core/money/decimal.js';
import type { SimulatedExchange } from '../../src/sim/ledger.js';
import { openTestLedger, TRADER, tokenBySymbol } from './helpers.js';

function quote(
  ex: SimulatedExchange,
  sell: { admin: string; id: string },
  buy: { admin: string; id: string },
  amount: string,
) {
  const q = quoteConnectSwap({
    request: {
      sellAmount: amount,
      sellInstrumentId: sell.id,
      sellInstrumentAdmin: sell.admin,
      buyInstrumentId: buy.id,
      buyInstrumentAdmin: buy.admin,
    },
    pools: ex.pools(),
    tokens: ex.tokens(),
    cc: ex.cc(),
    policy: ex.policy(),
    avgExecutionSeconds: null,
  });
  if (!q.ok) throw new Error(q.error);
  return q;
}

const k = (p: PoolState): Dec => new Dec(p.reserveA).mul(p.reserveB);

describe('swap execution', () => {
  it.each([
    ['CC', 'USDCX', '1000'],
    ['USDCX', 'CC', '20.5'],
    ['CC', 'MOD', '55'],
    ['TF-USDT', 'USDC.B', '250.123'],
    ['CBTC', 'USDCX', '0.01'],
  ])('%s → %s (%s) applies the quote plan exactly', (sellSym, buySym, amount) => {
    const { exchange: ex } = openTestLedger({ seed: `swap-${sellSym}-${buySym}` });
    const sell = tokenBySymbol(ex, sellSym);
    const buy = tokenBySymbol(ex, buySym);
    const before = new Map(ex.pools().map((p) => [p.poolId, p]));
    const q = quote(ex, sell, buy, amount);
    const changes: unknown[] = [];
    ex.onChange((c) => {
      changes.push(c);
      // listeners run after the commit: the exchange already shows the new states and events
      if (c.type === 'swap') {
        for (const p of c.pools) expect(ex.pools().find((x) => x.poolId === p.poolId)).toBe(p);
        expect(ex.swapEvents(0, ex.nowMs() + 1).slice(-c.events.length)).toEqual(c.events);
      }
    });
    const unsubscribe = ex.onChange(() => {
      throw new Error('a failing listener must not break the ledger');
    });
    const r = ex.transfer({ sender: TRADER, instrument: sell, amount, memo: q.body.memo ?? '' });
    expect(r.status).toBe('executed');
    if (r.status !== 'executed') return;
    expect(r.payout).toEqual({ instrument: buy, amount: q.body.returned.amount });
    expect(r.events).toHaveLength(q.plan.hops.length);
    const after = new Map(ex.pools().map((p) => [p.poolId, p]));
    for (const [i, hop] of q.plan.hops.entries()) {
      const old = before.get(hop.pool.poolId)!;
      const now = after.get(hop.pool.poolId)!;
      expect(now.reserveA).toBe(hop.newReserveA.toFixed(10));
      expect(now.reserveB).toBe(hop.newReserveB.toFixed(10));
      // conservation: the pool gains the input minus the protocol fee and loses exactly the output
      const sellIsA = old.tokenA.id === hop.sell.id && old.tokenA.admin === hop.sell.admin;
      const dIn = new Dec(sellIsA ? now.reserveA : now.reserveB).sub(sellIsA ? old.reserveA : old.reserveB);
      const dOut = new Dec(sellIsA ? old.reserveB : old.reserveA).sub(sellIsA ? now.reserveB : now.reserveA);
      expect(dIn.eq(hop.amountIn.sub(hop.protocolFee))).toBe(true);
      expect(dOut.eq(hop.amountOut)).toBe(true);
      expect(k(now).gte(k(old))).toBe(true);
      expect(now.totalLpSupply).toBe(old.totalLpSupply);
      expect(now.sequence).toBe(old.sequence + 1n);
      expect(now.reserveContract.contractId).not.toBe(old.reserveContract.contractId);
      const e = r.events[i]!;
      expect(e.poolId).toBe(hop.pool.poolId);
      expect(e.sellAmount).toBe(hop.amountIn.toFixed(10));
      expect(e.buyAmount).toBe(hop.amountOut.toFixed(10));
      expect(new Dec(e.protocolFee).add(e.lpFee).eq(e.poolFee)).toBe(true);
      expect(e.trader).toBe(TRADER);
      expect(Number(e.executionSeconds)).toBeGreaterThanOrEqual(3);
      expect(Number(e.executionSeconds)).toBeLessThanOrEqual(15);
      expect(e.priceAfter).toBe(new Dec(now.reserveB).div(now.reserveA).toFixed(10, Dec.ROUND_HALF_UP));
    }
    // untouched pools keep their contract
    for (const [id, p] of before) {
      if (!q.plan.hops.some((h) => h.pool.poolId === id)) expect(after.get(id)).toBe(p);
    }
    expect(changes).toHaveLength(1);
    unsubscribe();
    expect(ex.swapEvents(0, ex.nowMs() + 1)).toEqual(r.events);
    expect(ex.countTraders(0, ex.nowMs() + 1)).toBe(1);
  });

  it('two hops of one transfer share one update id and creation time', () => {
    const { exchange: ex } = openTestLedger();
    const r = ex.transfer({
      sender: TRADER,
      instrument: tokenBySymbol(ex, 'TF-USDT'),
      amount: '500',
      memo: 'USDC.B',
    });
    expect(r.status).toBe('executed');
    const touched = ex.pools().filter((p) => p.sequence === 1n);
    expect(touched).toHaveLength(2);
    expect(touched[0]!.reserveContract.updateId).toBe(touched[1]!.reserveContract.updateId);
    expect(touched[0]!.reserveContract.createdAtMicros).toBe(touched[1]!.reserveContract.createdAtMicros);
  });

  it('routes to the deepest of two pools serving the same pair', () => {
    const { exchange: ex } = openTestLedger();
    const pair = ex.pools().filter((p) => p.tokenB.id === 'USDCx');
    expect(new Set(pair.map((p) => p.feeRate)).size).toBe(2);
    const r = ex.transfer({ sender: TRADER, instrument: ex.cc(), amount: '100', memo: 'USDCx' });
    expect(r.status === 'executed' && r.events[0]!.poolId).toBe('2820898830768735469');
  });
});

describe('refunds', () => {
  const { exchange: ex } = openTestLedger({ seed: 'refunds' });
  const cc = ex.cc();
  it.each([
    ['an empty memo', { instrument: cc, amount: '100', memo: '' }, 'invalid memo'],
    [
      'a memo naming no token',
      { instrument: cc, amount: '100', memo: 'NOPE' },
      'memo names no reachable token',
    ],
    [
      'a non-tradable token',
      { instrument: cc, amount: '100', memo: 'LegacyCoin' },
      'memo names no reachable token',
    ],
    [
      'a too long affiliate code',
      { instrument: cc, amount: '100', memo: 'USDCx ref:123456789012345678901' },
      'invalid memo',
    ],
    [
      'an unknown sell token',
      { instrument: { admin: cc.admin, id: 'Nope' }, amount: '100', memo: 'USDCx' },
      'unknown instrument',
    ],
    ['a bad amount', { instrument: cc, amount: '1e3', memo: 'USDCx' }, 'invalid transfer amount'],
    ['a zero amount', { instrument: cc, amount: '0', memo: 'USDCx' }, 'invalid transfer amount'],
    [
      'an amount below the Connect minimum',
      { instrument: cc, amount: '49.99', memo: 'USDCx' },
      'minimum ticket size is 50 CC, or equivalent in other instruments',
    ],
    [
      'the same token',
      { instrument: cc, amount: '100', memo: 'Amulet' },
      'sell and buy instrument are the same',
    ],
  ])('refunds %s', (_, t, reason) => {
    const before = ex.pools();
    const r = ex.transfer({ sender: TRADER, ...t });
    expect(r).toEqual({ status: 'refunded', reason, refund: { instrument: t.instrument, amount: t.amount } });
    expect(ex.pools()).toBe(before);
    expect(ex.swapEvents(0, ex.nowMs() + 1)).toEqual([]);
  });

  it('refunds selling MOD', () => {
    const r = ex.transfer({
      sender: TRADER,
      instrument: tokenBySymbol(ex, 'MOD'),
      amount: '1000',
      memo: 'Amulet',
    });
    expect(r.status === 'refunded' && r.reason).toBe('MOD is not supported for connect swaps');
  });

  it('executes a huge swap without draining the pool (output < reserve)', () => {
    const r = ex.transfer({ sender: TRADER, instrument: ex.cc(), amount: '999999999999', memo: 'CTX' });
    expect(r.status).toBe('executed');
    const ctx = ex.pools().find((p) => p.tokenA.id === 'CTX')!;
    expect(new Dec(ctx.reserveA).gt(0)).toBe(true);
  });

  it('records refunds in the transfers table', () => {
    const { exchange: ex2, db } = openTestLedger({ seed: 'refund-table' });
    ex2.transfer({ sender: TRADER, instrument: ex2.cc(), amount: '100', memo: 'NOPE' });
    const rows = db.prepare('SELECT status, reason, update_id FROM transfers').all();
    expect(rows).toEqual([{ status: 'refunded', reason: 'memo names no reachable token', update_id: null }]);
  });
});
