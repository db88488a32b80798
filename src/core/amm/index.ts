/**
 * The AMM core (docs/protocol/api-decisions.md §1–§7, docs/protocol/public-api.md): constant-product math,
 * routes, fee plans, quote bodies, and market data (orderbook, tickers, candles, volume, stats). Pure: the
 * server, the simulator and the auditor all compute with these same functions. Response shapes
 * are the wire types of src/core/wire (one contract for server and auditor).
 */

export { Dec, roundDown10, roundHalfUp10, roundUp10, SCALE } from '../money/decimal.js';
export {
  CANDLE_SNAPSHOT_LIMIT,
  type CandleBar,
  type CandlesInput,
  computeBarStart,
  computeCandles,
} from './candles.js';
export { formatAmount, formatSeconds, formatTrimmed, parseAmount } from './format.js';
export { findMarketPools, formatPoolMarketSymbol, formatTickerId } from './market-symbol.js';
export {
  computeAverageExecutionSecondsFromLog,
  computePairActivityFromLog,
  computeStatsFromLog,
  computeTickersFromLog,
  computeVolumeWindowFromLog,
  type StatsFromLogInput,
  type TickersFromLogInput,
} from './market-windows.js';
export {
  computeOrderbook,
  computeOrderbookLevels,
  computeOrderbookNumbers,
  type OrderbookInput,
  parseOrderbookDepth,
} from './orderbook.js';
export {
  computeExecutedSwapMinimum,
  formatMemo,
  type QuoteInput,
  type QuotePlanResult,
  type QuoteRequest,
  type QuoteResult,
  quoteConnectSwap,
  quoteConnectSwapPlan,
  quotePoolSwap,
} from './quote.js';
export {
  computeQuoteBody,
  type QuoteBodyInput,
  type RenderQuoteInput,
  renderQuoteBody,
} from './quote-body.js';
export {
  computeCcValue,
  findDeepestPool,
  findRoute,
  isTokenInPools,
  type Route,
  type RouteHop,
} from './route.js';
export { toDec } from './state-decimal.js';
export { computeAverageExecutionSeconds, computeStats, computeTotalTvlCc, type StatsInput } from './stats.js';
export {
  formatScaledAmount,
  type PoolWindowActivity,
  SwapEventIndex,
  type SwapEventLog,
  type SwapWindowTotals,
} from './swap-event-index.js';
export {
  computeMidPrice,
  computeMidPriceExact,
  computePriceAfter,
  computeReserveOf,
  computeSwapInput,
  computeSwapOutput,
  computeTvlCc,
  isSameToken,
  type SwapInputInput,
  type SwapOutputInput,
} from './swap-math.js';
export {
  computeSwapPlan,
  type NetworkFeeSource,
  type SwapHopPlan,
  type SwapPlan,
  type SwapPlanInput,
  type SwapPlanMode,
} from './swap-plan.js';
export {
  computePairActivity,
  computePairs,
  computeTickers,
  computeTickersWith,
  DAY_MS,
  type PairActivity,
  type PairGroup,
  type TickersInput,
} from './tickers.js';
export type * from './types.js';
export { computeVolumeWindow, type VolumeWindowInput } from './volume.js';
