/** The seed market (docs/protocol/api-decisions.md §2), its generated pools, the memo, the RNG. */
import { describe, expect, it } from 'vitest';
import { formatMemo } from '../../src/core/amm/quote.js';
import { Dec } from '../../src/core/money/decimal.js';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { parseMemo } from '../../src/sim/memo.js';
import { createCryptoRng, createSeededRng } from '../../src/sim/rng.js';
import { expandSeedMarket, parseSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { SEED_MARKET, T0 } from './helpers.js';

const CC_ADMIN = 'DSO::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc';
const USDCX_ADMIN =
  'decentralized-usdc-interchain-rep::12208115f1e168dd7e792320be9c4ca720c751a02a3053c7606e1c1cd3dad9bf60ef';

describe('seed market fixture', () => {
  const m = SEED_MARKET;
  it('carries the live identifiers', () => {
    expect(m.cc).toEqual({ admin: CC_ADMIN, id: 'Amulet' });
    expect(m.tokens.find((t) => t.symbol === 'CC')).toMatchObject({ admin: CC_ADMIN, id: 'Amulet' });
    expect(m.tokens.find((t) => t.symbol === 'USDCX')).toMatchObject({ admin: USDCX_ADMIN, id: 'USDCx' });
    expect(m.swapParty).toBe(
      'cantex-swap::122038c015864f106cfed48bb9106b7c89982368d27956ffcdfda6c38328f0909b8c',
    );
    const stable = m.pools.find((p) => p.tokenB.id === 'USDCx' && p.feeRate === '0.0005000000')!;
    expect(stable.tokenA).toEqual(m.cc);
    expect(m.adminFeeShare).toBe('0.1000000000');
  });

  it('has MOD, symbols with - and ., a non-tradable token and a pair with two fee rates', () => {
    const symbols = m.tokens.map((t) => t.symbol);
    expect(symbols).toEqual(expect.arrayContaining(['MOD', 'TF-USDT', 'USDC.B', 'LGC']));
    expect(m.pools.some((p) => p.tokenA.id === 'LegacyCoin' || p.tokenB.id === 'LegacyCoin')).toBe(false);
    const pairs = new Map<string, Set<string>>();
    for (const p of m.pools) {
      const k = `${p.tokenA.id}/${p.tokenB.id}`;
      pairs.set(k, (pairs.get(k) ?? new Set()).add(p.feeRate));
    }
    expect([...pairs.values()].filter((s) => s.size >= 2).length).toBeGreaterThanOrEqual(1);
  });

  it('has the documented policy', () => {
    expect(m.policy).toMatchObject({
      connectFeeRate: '0.0020000000',
      networkFeeCc: '2.0000000000',
      minConnectSwapAmountSizeCc: '50.0000000000',
      minSwapAmountSizeCc: '10.0000000000',
      minSwapAmountForFeeWaiverCc: '250.0000000000',
    });
  });

  it.each([
    ['a wrong format', (j: Record<string, unknown>) => ({ ...j, format: 'x' }), '$.format'],
    ['a bad party', (j: Record<string, unknown>) => ({ ...j, operator: 'nobody' }), '$.operator'],
    [
      'a pool without CC',
      (j: Record<string, unknown>) => ({
        ...j,
        pools: [
          { pool_id: '1', token_a: 'MOD', token_b: 'CTX', fee_rate: '0.003', reserve_a: '1', reserve_b: '1' },
        ],
      }),
      '$.pools[0]',
    ],
    [
      'a negative reserve',
      (j: Record<string, unknown>) => ({
        ...j,
        pools: [
          { pool_id: '1', token_a: 'MOD', token_b: 'CC', fee_rate: '0.003', reserve_a: '-1', reserve_b: '1' },
        ],
      }),
      '$.pools[0].reserve_a',
    ],
  ])('rejects %s with SEED_MARKET_INVALID', async (_, mutate, path) => {
    const { readFileSync } = await import('node:fs');
    const json = JSON.parse(
      readFileSync(new URL('../../fixtures/seed-market.json', import.meta.url), 'utf8'),
    );
    expect(() => parseSeedMarket(mutate(json))).toThrow(
      expect.objectContaining({
        code: 'SEED_MARKET_INVALID',
        shortMessage: expect.stringContaining(`"${path}`),
      }),
    );
  });
});

describe('generated pools', () => {
  it('adds N deterministic CC pools with unique ids, some pairs twice', () => {
    const a = expandSeedMarket(SEED_MARKET, 50);
    const b = expandSeedMarket(SEED_MARKET, 50);
    expect(a).toEqual(b);
    expect(a.pools.length).toBe(SEED_MARKET.pools.length + 50);
    expect(new Set(a.pools.map((p) => p.poolId)).size).toBe(a.pools.length);
    const gen = a.pools.slice(SEED_MARKET.pools.length);
    expect(gen.every((p) => p.tokenB.id === 'Amulet' && new Dec(p.reserveA).gt(0))).toBe(true);
    const twins = gen.filter((p, i) => gen.findIndex((q) => q.tokenA.id === p.tokenA.id) !== i);
    expect(twins.length).toBe(5);
    for (const t of twins) {
      const first = gen.find((q) => q.tokenA.id === t.tokenA.id)!;
      expect(first.feeRate).not.toBe(t.feeRate);
    }
  });

  it('a 1000-pool ledger opens quickly and its contracts are well formed', () => {
    const t0 = performance.now();
    const ex = createExchange({
      db: openServerDb(':memory:'),
      clock: createManualClock(T0),
      rng: createSeededRng('bench'),
      seedMarket: SEED_MARKET,
      extraPools: 1000,
    });
    const ms = performance.now() - t0;
    expect(ex.pools().length).toBe(SEED_MARKET.pools.length + 1000);
    expect(new Set(ex.pools().map((p) => p.reserveContract.contractId)).size).toBe(ex.pools().length);
    // generous bound for a loaded 2-core CI machine; docs/bench/simulator.md has the measured time
    expect(ms).toBeLessThan(20_000);
  });
});

describe('memo', () => {
  it('parses what the quote formats', () => {
    expect(parseMemo(formatMemo('USDCx', null))).toEqual({ buyInstrumentId: 'USDCx', affiliateCode: null });
    expect(parseMemo(formatMemo('TF-USDT', 'abcdefghijklmnopqrstuvwxyz'))).toEqual({
      buyInstrumentId: 'TF-USDT',
      affiliateCode: 'abcdefghijklmnopqrst',
    });
  });
  it.each(['', ' USDCx', 'USDCx ', 'US DCx', 'USDCx ref:', 'USDCx\n', 'USDCx ref:a\u0000', 'x'.repeat(600)])(
    'rejects %j',
    (memo) => expect(parseMemo(memo)).toBeNull(),
  );
});

describe('rng', () => {
  it('is deterministic per seed, resumable, and unbiased in range', () => {
    const a = createSeededRng('s');
    const b = createSeededRng('s');
    a.bytes(5);
    b.bytes(5);
    expect(Buffer.from(a.bytes(40))).toEqual(Buffer.from(b.bytes(40)));
    const state = a.saveState()!;
    const c = createSeededRng('s');
    expect(c.loadState(state)).toBe(true);
    expect(c.bytes(16)).toEqual(a.bytes(16));
    expect(createSeededRng('t').loadState(state)).toBe(false);
    expect(createCryptoRng().saveState()).toBeNull();
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[a.int(3)]!++;
    for (const n of counts) expect(n).toBeGreaterThan(850);
    expect(() => a.int(0)).toThrow(expect.objectContaining({ code: 'SIMULATOR_OPTION_INVALID' }));
  });
});
