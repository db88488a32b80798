/** Test market for the AMM tests: the live CC/USDCx identifiers plus invented tokens (api-decisions §2). */
import type { ExchangePolicy, PoolState, SwapEvent, Token } from '../../src/core/amm/index.js';

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
  admin: 'mod-issuer::1220cc',
  id: 'MOD',
  name: 'Mod',
  symbol: 'MOD',
  priceAggregatorId: null,
};
export const TFUSDT: Token = {
  admin: 'tf-issuer::1220dd',
  id: 'TF-USDT',
  name: 'TF USDT',
  symbol: 'TF-USDT',
  priceAggregatorId: 'tether',
};
export const GOLD: Token = {
  admin: 'gold::1220ee',
  id: 'GOLD',
  name: 'Gold',
  symbol: 'GOLD',
  priceAggregatorId: null,
};
export const LONELY: Token = {
  admin: 'x::1220ff',
  id: 'LONELY',
  name: 'Lonely',
  symbol: 'LONELY',
  priceAggregatorId: null,
};

export const TOKENS: readonly Token[] = [CC, USDCX, MOD, TFUSDT, GOLD, LONELY];

export function makePool(
  poolId: string,
  tokenA: Token,
  tokenB: Token,
  reserveA: string,
  reserveB: string,
  feeRate = '0.003',
  extra: Partial<PoolState> = {},
): PoolState {
  return {
    poolId,
    tokenA,
    tokenB,
    reserveA,
    reserveB,
    totalLpSupply: '1000.0000000000',
    feeRate,
    adminFeeShare: '0.1',
    active: true,
    sequence: 1n,
    reserveContract: {
      contractId: `00${poolId.padStart(4, '0')}`,
      updateId: `update-${poolId}`,
      createdAtMicros: 0n,
      createdEventBlob: '',
      packageId: 'pkg',
      packageName: 'amm-pools',
      moduleName: 'Amm.Pool',
      entityName: 'PoolReserve',
    },
    ...extra,
  };
}

export const POLICY: ExchangePolicy = {
  connectFeeRate: '0.002',
  networkFeeCc: '2',
  transferFeeCc: '0',
  allocationFeeCc: '0',
  freeTransfersPerDay: 3,
  minRecommendedCcBalance: '10',
  minSwapAmountForFeeWaiverCc: '500',
  minSwapAmountSizeCc: '10',
  minConnectSwapAmountSizeCc: '50',
  needInviteCode: false,
};

/** CC-USDCX (deep and shallow), TF-USDT-CC, GOLD-CC, MOD-CC. Prices: 1 CC = 0.15 USDCx; 1 TF-USDT = 6.5 CC. */
export function seedPools(): PoolState[] {
  return [
    makePool('1', CC, USDCX, '1000000.0000000000', '150000.0000000000', '0.0005'),
    makePool('2', CC, USDCX, '10000.0000000000', '1500.0000000000', '0.003'),
    makePool('3', TFUSDT, CC, '20000.0000000000', '130000.0000000000', '0.003'),
    makePool('4', GOLD, CC, '100.0000000000', '400000.0000000000', '0.01'),
    makePool('5', MOD, CC, '5000.0000000000', '5000.0000000000', '0.003'),
  ];
}

export function makeEvent(over: Partial<SwapEvent> & Pick<SwapEvent, 'seq' | 'tsMs'>): SwapEvent {
  return {
    poolId: '1',
    trader: 'alice::1220',
    sell: CC,
    buy: USDCX,
    sellAmount: '100.0000000000',
    buyAmount: '15.0000000000',
    poolFee: '0.0500000000',
    protocolFee: '0.0050000000',
    lpFee: '0.0450000000',
    volumeCc: '100.0000000000',
    feeCc: '0.0500000000',
    protocolFeeCc: '0.0050000000',
    lpFeeCc: '0.0450000000',
    baseAmount: '100.0000000000',
    quoteAmount: '15.0000000000',
    priceAfter: '0.1500000000',
    executionSeconds: '5.00',
    ...over,
  };
}
