/**
 * The simulated ledger of the reference server (docs/protocol/api-decisions.md §3, §5): public entry points.
 * See the README, section "The simulated ledger".
 */
export { createManualClock, type ManualClock, type SimClock, systemClock } from './clock.js';
export type {
  ExchangeChange,
  ExchangeSimulation,
  ExchangeView,
  SimTransfer,
  SimTransferResult,
} from './exchange.js';
export {
  type CreateExchangeOptions,
  createExchange,
  DEFAULT_GENESIS_AGE_MS,
} from './ledger.js';
export { computeInitialLpSupply, computeLiquidityAdd, computeLiquidityRemove } from './liquidity.js';
export { type ParsedMemo, parseMemo } from './memo.js';
export { type MintedReserve, mintReserveContract, RESERVE_TYPE_ENV } from './mint.js';
export {
  decodeReserveCreateArg,
  encodeReserveCreateArg,
  RESERVE_ENTITY_NAME,
  RESERVE_MODULE_NAME,
  RESERVE_PACKAGE_ID,
  RESERVE_PACKAGE_ID_PREIMAGE,
  RESERVE_PACKAGE_NAME,
  RESERVE_PACKAGE_TYPES,
  RESERVE_TEMPLATE_ID,
  type ReserveFields,
} from './reserve-template.js';
export { createCryptoRng, createSeededRng, restoreSeededRng, type SimRng } from './rng.js';
export {
  DEFAULT_SEED_MARKET_PATH,
  expandSeedMarket,
  loadSeedMarket,
  parseSeedMarket,
  type SeedMarket,
  type SeedPool,
} from './seed-market.js';
export type { PrefillOptions, PrefillResult, SimulatedExchange } from './simulated-exchange.js';
export {
  computeTraderParty,
  prefillHistory,
  type StartTrafficOptions,
  simulateRandomSwap,
  startTraffic,
  type TrafficHandle,
} from './traffic.js';
