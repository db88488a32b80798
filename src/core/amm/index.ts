/**
 * The AMM core (docs/protocol/api-decisions.md §1–§7, docs/protocol/public-api.md): constant-product math,
 * routes, fee plans, quote bodies, and market data (orderbook, tickers, candles, volume, stats). Pure: the
 * server, the simulator and the auditor all compute with these same functions. Response shapes
 * are the wire types of src/core/wire (one contract for server and auditor).
 */

export {
  CANDLE_SNAPSHOT_LIMIT,
  type CandleBar,
  type CandlesInput,
  computeBarStart,
  computeCandles,
} from './candles.js';
export { Dec, roundDown10, roundHalfUp10, roundUp10, SCALE, toDec } from './decimal.js';
export { formatAmount, formatSeconds, formatTrimmed, MAX_AMOUNT_DIGITS, parseAmount } from './format.js';
export {
  findMarketPools,
  findTickerPools,
  formatMarketSymbol,
  formatPoolMarketSymbol,
  formatTickerId,
  type MarketSymbol,
  parseMarketSymbol,
  parseTickerId,
} from './market-symbol.js';
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
  ORDERBOOK_BAND,
  ORDERBOOK_DEFAULT_DEPTH,
  ORDERBOOK_MAX_DEPTH,
  type OrderbookInput,
  parseOrderbookDepth,
} from './orderbook.js';
export {
  AFFILIATE_CODE_MAX,
  computeExecutedSwapMinimum,
  formatMemo,
  isUnsupportedConnectToken,
  parseQuoteRequest,
  type QuoteInput,
  type QuotePlanResult,
  type QuoteRequest,
  type QuoteResult,
  quoteConnectSwap,
  quoteConnectSwapPlan,
  quotePoolSwap,
  UNSUPPORTED_CONNECT_SYMBOL,
} from './quote.js';
export { type RenderQuoteInput, renderQuoteBody } from './quote-body.js';
export {
  computeCcValue,
  findDeepestPool,
  findPairPool,
  findRoute,
  isTokenInPools,
  type Route,
  type RouteHop,
} from './route.js';
export {
  computeAverageExecutionSeconds,
  computeStats,
  computeTotalTvlCc,
  type StatsInput,
} from './stats.js';
export {
  formatScaledAmount,
  type PoolWindowActivity,
  SwapEventIndex,
  type SwapEventLog,
  type SwapWindowTotals,
} from './swap-event-index.js';
export {
  computeCcReserve,
  computeFeeSplit,
  computeMidPrice,
  computeMidPriceExact,
  computePriceAfter,
  computeReserveOf,
  computeSlippage,
  computeSwapInput,
  computeSwapOutput,
  computeTvlCc,
  type FeeSplit,
  isSameToken,
  type SwapInputInput,
  type SwapOutputInput,
} from './swap-math.js';
export {
  computeFeePercentage,
  computeHopMid,
  computeSwapHop,
  computeSwapPlan,
  type NetworkFeeSource,
  type SwapHopPlan,
  type SwapPlan,
  type SwapPlanInput,
  type SwapPlanMode,
} from './swap-plan.js';
export {
  computePairActivity,
  computePairGroups,
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
