/**
 * The simulated ledger of the reference server (docs/protocol/api-decisions.md §3, §5): public entry points.
 * See the README, section "The simulated ledger".
 */
export { createManualClock, type ManualClock, type SimClock, systemClock } from './clock.js';
export type * from './exchange.js';
export { type CreateExchangeOptions, createExchange } from './ledger.js';
export {
  computeInitialLpSupply,
  computeLiquidityAdd,
  computeLiquidityRemove,
  type LiquidityChange,
  type PoolReserves,
} from './liquidity.js';
export { type ParsedMemo, parseMemo } from './memo.js';
export { type MintedReserve, type MintInput, mintReserveContract } from './mint.js';
export {
  encodeReserveCreateArg,
  RESERVE_ENTITY_NAME,
  RESERVE_MODULE_NAME,
  RESERVE_PACKAGE_ID,
  RESERVE_PACKAGE_NAME,
  RESERVE_PACKAGE_TYPES,
  RESERVE_TEMPLATE_ID,
  type ReserveFields,
} from './reserve-template.js';
export { createCryptoRng, createSeededRng, type SimRng } from './rng.js';
export { expandSeedMarket, loadSeedMarket, type SeedMarket, type SeedPool } from './seed-market.js';
export type { PrefillOptions, PrefillResult, SimulatedExchange } from './simulated-exchange.js';
export type { ServerDb } from './store/connection.js';
export type { ReserveContractRow } from './store/ledger-store.js';
export {
  prefillHistory,
  type StartTrafficOptions,
  simulateRandomSwap,
  startTraffic,
  type TrafficHandle,
} from './traffic.js';
