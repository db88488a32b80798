/**
 * A small in-memory ExchangeView for the HTTP/websocket unit tests (the e2e tests use the real
 * createExchange). Seeded with the mainnet-like identifiers of api-decisions §2. `swap()` moves a
 * pool's reserves along x·y = k (no fee; enough to drive the routes) and emits an ExchangeChange.
 */
import { SwapEventIndex } from '../../../src/core/amm/swap-event-index.js';
import type { ExchangePolicy, PoolState, SwapEvent, Token } from '../../../src/core/amm/types.js';
import type { ExchangeChange, ExchangeView } from '../../../src/sim/exchange.js';

export const CC: Token = {
  admin: 'DSO::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc',
  id: 'Amulet',
  name: 'Canton Coin',
  symbol: 'CC',
  priceAggregatorId: 'canton-network',
};
export const USDCX: Token = {
  admin:
    'decentralized-usdc-interchain-rep::12208115f1e168dd7e792320be9c4ca720c751a02a3053c7606e1c1cd3dad9bf60ef',
  id: 'USDCx',
  name: 'USDCx',
  symbol: 'USDCX',
  priceAggregatorId: 'usd-coin',
};
export const MOD: Token = {
  admin: 'mod-issuer::1220aa',
  id: 'MOD',
  name: 'Mod Token',
  symbol: 'MOD',
  priceAggregatorId: null,
};
export const FOO: Token = {
  admin: 'foo-issuer::1220bb',
  id: 'FOO',
  name: 'Foo',
  symbol: 'TF-FOO',
  priceAggregatorId: null,
};
const IDLE: Token = {
  admin: 'idle::1220cc',
  id: 'IDLE',
  name: 'Idle',
  symbol: 'IDLE',
  priceAggregatorId: null,
};

const POLICY: ExchangePolicy = {
  connectFeeRate: '0.002',
  networkFeeCc: '2',
  transferFeeCc: '0.5',
  allocationFeeCc: '0.25',
  freeTransfersPerDay: 3,
  minRecommendedCcBalance: '20',
  minSwapAmountForFeeWaiverCc: '500',
  minSwapAmountSizeCc: '10',
  minConnectSwapAmountSizeCc: '50',
  needInviteCode: false,
};

export const T0 = Date.UTC(2026, 10, 22, 3, 0, 0);

function pool(poolId: string, a: Token, b: Token, ra: string, rb: string, fee: string, n: number): PoolState {
  return {
    poolId,
    tokenA: a,
    tokenB: b,
    reserveA: ra,
    reserveB: rb,
    totalLpSupply: '1000.0000000000',
    feeRate: fee,
    adminFeeShare: '0.1',
    active: true,
    sequence: 0n,
    reserveContract: {
      contractId: `00${String(n).padStart(2, '0')}${'ab'.repeat(31)}ca1220${'cd'.repeat(32)}`,
      updateId: `1220${'ef'.repeat(31)}${String(n).padStart(2, '0')}`,
      createdAtMicros: BigInt(T0 - 86_400_000) * 1000n + 123456n,
      createdEventBlob: Buffer.from(`blob-${poolId}`).toString('base64'),
      packageId: 'aa'.repeat(32),
      packageName: 'amm-pools',
      moduleName: 'Amm.Pool',
      entityName: 'PoolReserve',
    },
  };
}

export interface FakeExchange extends ExchangeView {
  setNow(ms: number): void;
  advance(ms: number): void;
  /** sells `amountIn` of the pool's token a (or b when `sellB`) with no fee; emits a swap change */
  swap(poolId: string, amountIn: number, sellB?: boolean): SwapEvent;
  setPools(pools: PoolState[]): void;
  listenerCount(): number;
}

export function createFakeExchange(startMs: number = T0): FakeExchange {
  let now = startMs;
  let pools: PoolState[] = [
    pool('2820898830768735469', CC, USDCX, '1611266.5495824633', '245420.1234567890', '0.0005', 1),
    pool('1000', MOD, CC, '50000.0000000000', '100000.0000000000', '0.003', 2),
    pool('1001', FOO, CC, '2000.0000000000', '40000.0000000000', '0.003', 3),
    pool('1002', FOO, CC, '100.0000000000', '2000.0000000000', '0.01', 4),
  ];
  const events: SwapEvent[] = [];
  const log = new SwapEventIndex();
  const listeners = new Set<(c: ExchangeChange) => void>();
  let seq = 0;
  const ex: FakeExchange = {
    nowMs: () => now,
    tokens: () => [CC, USDCX, MOD, FOO, IDLE],
    cc: () => CC,
    pools: () => pools,
    policy: () => POLICY,
    swapParty: () => 'cantex-swap::122038c015864f106cfed48bb9106b7c89982368d27956ffcdfda6c38328f0909b8c',
    ccUsdPrice: () => '0.1523',
    swapEvents: (from, to) => events.filter((e) => e.tsMs >= from && e.tsMs < to),
    countTraders: (from, to) =>
      new Set(events.filter((e) => e.tsMs >= from && e.tsMs < to).map((e) => e.trader)).size,
    swapEventLog: () => log,
    reserveHistory: (poolId) => pools.filter((p) => p.poolId === poolId),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setNow(ms) {
      now = ms;
    },
    advance(ms) {
      now += ms;
    },
    setPools(p) {
      pools = p;
    },
    listenerCount: () => listeners.size,
    swap(poolId, amountIn, sellB = false) {
      const i = pools.findIndex((p) => p.poolId === poolId);
      const p = pools[i];
      if (p === undefined) throw new Error(`no pool ${poolId}`);
      const ra = Number(p.reserveA);
      const rb = Number(p.reserveB);
      const k = ra * rb;
      const na = sellB ? k / (rb + amountIn) : ra + amountIn;
      const nb = sellB ? rb + amountIn : k / (ra + amountIn);
      const fmt = (x: number): string => x.toFixed(10);
      const next: PoolState = {
        ...p,
        reserveA: fmt(na),
        reserveB: fmt(nb),
        sequence: p.sequence + 1n,
        reserveContract: { ...p.reserveContract, createdAtMicros: BigInt(now) * 1000n },
      };
      pools = pools.map((x, j) => (j === i ? next : x));
      const baseAmount = Math.abs(na - ra);
      const quoteAmount = Math.abs(nb - rb);
      const ccIsA = p.tokenA.id === CC.id;
      const e: SwapEvent = {
        seq: ++seq,
        tsMs: now,
        poolId,
        trader: `trader-${seq % 3}`,
        sell: sellB ? p.tokenB : p.tokenA,
        buy: sellB ? p.tokenA : p.tokenB,
        sellAmount: fmt(amountIn),
        buyAmount: fmt(sellB ? baseAmount : quoteAmount),
        poolFee: '0.0000000000',
        protocolFee: '0.0000000000',
        lpFee: '0.0000000000',
        volumeCc: fmt(ccIsA ? baseAmount : quoteAmount),
        feeCc: '0.3000000000',
        protocolFeeCc: '0.0300000000',
        lpFeeCc: '0.2700000000',
        baseAmount: fmt(baseAmount),
        quoteAmount: fmt(quoteAmount),
        priceAfter: fmt(nb / na),
        executionSeconds: '11.50',
      };
      events.push(e);
      log.append(e);
      for (const l of listeners) l({ type: 'swap', events: [e], pools: [next] });
      return e;
    },
  };
  return ex;
}
