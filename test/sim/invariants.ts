/**
 * Property check shared by the default and the slow simulator suites: a random sequence of
 * transfers and liquidity operations keeps the ledger's invariants (api-decisions §1, §3, §5).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { PoolState } from '../../src/core/amm/types.js';
import { verifyContractId } from '../../src/core/hash/index.js';
import { Dec } from '../../src/core/money/decimal.js';
import { RESERVE_TYPE_ENV } from '../../src/sim/mint.js';
import { openTestLedger, TRADER } from './helpers.js';

const SYMBOLS = ['CC', 'USDCX', 'MOD', 'CBTC', 'TF-USDT', 'USDC.B', 'CTX', 'LGC'];

export type Op =
  | { kind: 'swap'; sell: string; buy: string; amount: string; affiliate: boolean }
  | { kind: 'add'; pool: number; a: string; b: string }
  | { kind: 'remove'; pool: number; fraction: number };

const amount = fc
  .tuple(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 9_999_999_999 }))
  .map(([i, f]) => `${i}.${String(f).padStart(10, '0')}`);

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('swap' as const),
      sell: fc.constantFrom(...SYMBOLS),
      buy: fc.constantFrom(...SYMBOLS),
      amount,
      affiliate: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('add' as const), pool: fc.nat(7), a: amount, b: amount }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      pool: fc.nat(7),
      fraction: fc.integer({ min: 1, max: 100 }),
    }),
  },
);

const k = (p: PoolState): Dec => new Dec(p.reserveA).mul(p.reserveB);
const lpValue = (p: PoolState): [Dec, Dec] => {
  const s = new Dec(p.totalLpSupply);
  return s.isZero() ? [new Dec(0), new Dec(0)] : [new Dec(p.reserveA).div(s), new Dec(p.reserveB).div(s)];
};

/** Runs `ops` on a fresh ledger and checks every invariant after each step. */
export function checkInvariants(
  seed: string,
  ops: readonly Op[],
  version: 'v10' | 'v11' | 'v12' = 'v12',
): void {
  const { exchange: ex, clock } = openTestLedger({ seed, version });
  const tok = (s: string) => {
    const t = ex.tokens().find((x) => x.symbol === s)!;
    return { admin: t.admin, id: t.id };
  };
  for (const op of ops) {
    clock.advanceMs(1000);
    const before = new Map(ex.pools().map((p) => [p.poolId, p]));
    if (op.kind === 'swap') {
      const r = ex.transfer({
        sender: TRADER,
        instrument: tok(op.sell),
        amount: op.amount,
        memo: `${tok(op.buy).id}${op.affiliate ? ' ref:x' : ''}`,
      });
      if (r.status === 'refunded') {
        expect(r.refund.amount).toBe(op.amount);
        expect(ex.pools()).toEqual([...before.values()]);
        continue;
      }
      expect(new Dec(r.payout.amount).gt(0)).toBe(true);
      for (const e of r.events) {
        const now = ex.pools().find((p) => p.poolId === e.poolId)!;
        const old = before.get(e.poolId)!;
        expect(k(now).gte(k(old))).toBe(true); // k never decreases across a swap
        const buyIsA = old.tokenA.admin === e.buy.admin && old.tokenA.id === e.buy.id;
        expect(new Dec(e.buyAmount).lt(buyIsA ? old.reserveA : old.reserveB)).toBe(true); // output < reserve
        expect(now.totalLpSupply).toBe(old.totalLpSupply);
      }
    } else {
      const pool = ex.pools()[op.pool]!;
      try {
        if (op.kind === 'add') ex.addLiquidity(pool.poolId, op.a, op.b, TRADER);
        else {
          const held = new Dec(pool.totalLpSupply)
            .mul(op.fraction)
            .div(1000)
            .toDecimalPlaces(10, Dec.ROUND_DOWN);
          ex.removeLiquidity(pool.poolId, held.toFixed(10), ex.operatorParty());
        }
      } catch (e) {
        expect((e as { code?: string }).code).toBe('LIQUIDITY_AMOUNT_INVALID');
        continue;
      }
      const now = ex.pools().find((p) => p.poolId === pool.poolId)!;
      const [a0, b0] = lpValue(pool);
      const [a1, b1] = lpValue(now);
      expect(a1.gte(a0) && b1.gte(b0)).toBe(true); // one LP unit never loses value
    }
    for (const p of ex.pools()) {
      expect(new Dec(p.reserveA).gte(0) && new Dec(p.reserveB).gte(0)).toBe(true);
      expect(p.reserveA).toMatch(/^\d+\.\d{10}$/);
    }
  }
  for (const p of ex.pools()) {
    for (const c of ex.reserveContracts(p.poolId, 10_000)) {
      expect(
        verifyContractId({ contractId: c.contractId, blob: c.blob, types: RESERVE_TYPE_ENV }).status,
      ).toBe('verified');
    }
  }
}
