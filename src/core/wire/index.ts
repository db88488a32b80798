/**
 * THE wire contract of the exchange's public API (docs/protocol/public-api.md,
 * docs/protocol/api-decisions.md): the response types the server builds and the auditor parses, their strict
 * parsers, the one timestamp parser/formatter, and the `ApiSnapshot` one audit works on. Pure: no I/O.
 */

export type {
  AggregatorOrderbook,
  AggregatorOrderbookResponse,
  AggregatorPair,
  AggregatorPairsResponse,
  AggregatorPath,
  AggregatorTicker,
  AggregatorTickersResponse,
  OrderbookLevel,
} from './aggregator.js';
export {
  AGGREGATOR_PATHS,
  isAggregatorEndpoint,
  parseAggregatorOrderbookResponse,
  parseAggregatorPairsResponse,
  parseAggregatorTickersResponse,
} from './aggregator.js';
export type { ApiDialect } from './dialect.js';
export { computeApiDialect } from './dialect.js';
export type { ErrorResponse } from './error-response.js';
export { parseErrorResponse } from './error-response.js';
export type { ExchangeInfoResponse, ExchangePolicyInfo, FeeAmount } from './exchange-info.js';
export { parseExchangeInfoResponse } from './exchange-info.js';
export type { MarketInfo, MarketsInfoResponse } from './markets-info.js';
export { isOwnMarketSource, parseMarketsInfoResponse } from './markets-info.js';
export type { PoolsData, PoolsDataPerPool } from './pools-data.js';
export type { PoolInfo, PoolsInfoPerPool, PoolsInfoResponse } from './pools-info.js';
export { parsePoolsInfoPerPool, parsePoolsInfoResponse } from './pools-info.js';
export type {
  PoolProofInfo,
  PoolsProofPerPool,
  PoolsProofResponse,
  ProofInstrument,
  ReserveContractInfo,
} from './pools-proof.js';
export { parsePoolsProofPerPool, parsePoolsProofResponse } from './pools-proof.js';
export type { PoolStateInfo, PoolsStatePerPool, PoolsStateResponse, StateInstrument } from './pools-state.js';
export { parsePoolsStatePerPool, parsePoolsStateResponse } from './pools-state.js';
export type { PlannedProbe, TokenRefLike } from './probe-plan.js';
export { computeProbePlan } from './probe-plan.js';
export type {
  ConnectQuoteResponse,
  QuoteAmount,
  QuoteHop,
  QuotePrices,
  QuoteRequest,
  QuoteResponse,
} from './quote.js';
export { parseConnectQuoteResponse, parsePoolsQuoteResponse } from './quote.js';
export type { MalformedEntry, ParseOptions } from './shape.js';
export type {
  ApiResult,
  ApiSnapshot,
  ApiSnapshotSection,
  OrderbookSample,
  ProbeKind,
  ProbeQuote,
  RawResponse,
  VolumeChecks,
  VolumeSample,
} from './snapshot.js';
export { API_SNAPSHOT_SECTIONS, computeFailedSections, parseCacheHeaders } from './snapshot.js';
export type { StatsResponse, SwapStats } from './stats.js';
export { parseStatsResponse } from './stats.js';
export type { SwapInfoResponse, TradableToken } from './swap-info.js';
export { parseSwapInfoResponse } from './swap-info.js';
export {
  formatApiTimestamp,
  formatApiTimestampMicros,
  formatApiTimestampSeconds,
  formatInstantMs,
  parseApiTimestampMicros,
  parseApiTimestampMs,
  parseQueryTimestamp,
  parseTimestampMicros,
} from './timestamp.js';
export type { TokenInfo, TokensInfoResponse } from './tokens-info.js';
export { parseTokensInfoResponse } from './tokens-info.js';
export type { VolumeResponse, VolumeTotals, VolumeWindow } from './volume.js';
export { parseVolumeResponse } from './volume.js';
