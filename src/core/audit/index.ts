/** The audit engine (the issue "reserve-audit audit"): pure checks over snapshots → findings. */

export type { MalformedEntry } from '../wire/shape.js';
export type { ProbeQuote } from '../wire/snapshot.js';
export type { AssuranceLevel, LedgerPoolResult } from './assurance.js';
export {
  ASSURANCE_LEVELS,
  ASSURANCE_LIMITS,
  computeAssuranceCounts,
  computePoolAssurance,
  computeRunAssurance,
} from './assurance.js';
export type { CheckCounts, FindingCounts, LabelCounts } from './counts.js';
export { computeCheckCounts, computeFindingCounts, computeLabelCounts } from './counts.js';
export type { AuditCoverage, CoverageInput } from './coverage.js';
export { computeAuditCoverage, formatCoverageLines } from './coverage.js';
export { formatFixed, isSameAmount, parseDecimal } from './decimal-strings.js';
export type { StandInState } from './entry-checks.js';
export {
  checkMalformedProofEntries,
  checkMalformedStateEntries,
  computeMalformedPools,
  computeStandInStates,
} from './entry-checks.js';
export type { AuditExitCode } from './exit-code.js';
export { AUDIT_EXIT_CODES, computeAuditExitCode } from './exit-code.js';
export type { AuditOutcome, CheckOutcome, CheckStatus, Evidence, Finding } from './finding.js';
export { AuditCollector, computeAuditOutcome, makeFinding } from './finding.js';
export type { FindingCode, FindingCodeDef } from './finding-codes.js';
export { FINDING_CODES } from './finding-codes.js';
export type { AuditArea, FindingLabel, Severity } from './finding-kinds.js';
export { AUDIT_AREAS } from './finding-kinds.js';
export type {
  FollowedAuditEvent,
  FollowedHistory,
  FollowedStream,
  FollowedStreamCoverage,
} from './followed-history-checks.js';
export { checkFollowedHistory } from './followed-history-checks.js';
export { computeAuditSnapshot } from './from-api-snapshot.js';
export type {
  HistoryFold,
  HistoryOptions,
  HistoryPoint,
  KnownContract,
  PointFindings,
} from './history-checks.js';
export {
  checkHistoryCurrent,
  checkHistoryPools,
  checkHistorySeries,
  computeHistoryFold,
  EMPTY_HISTORY_FOLD,
  stepHistoryFold,
} from './history-checks.js';
export type { EarlierPointFacts } from './history-fold-earlier.js';
export { computeFoldWithEarlierPoint } from './history-fold-earlier.js';
export { checkLedger, LEDGER_ARCHIVE_WINDOW_MS } from './ledger-checks.js';
export type { LedgerActiveReserve, LedgerContractLookup, LedgerEvidence } from './ledger-evidence.js';
export {
  computeLpShareSquare,
  computeLpShareValue,
  formatLpShareValue,
  isLpShareDecreaseExact,
  isLpShareSquareDecrease,
  LP_SHARE_TOLERANCE,
} from './lp-share.js';
export type { CachedCheck, MarketCacheContext } from './market-cache.js';
export {
  capMaxAge,
  computeSnapshotStates,
  PUBLISHED_MAX_AGE_SECONDS,
  recordCachedCheck,
} from './market-cache.js';
export type { MarketCheckContext } from './market-checks.js';
export {
  checkMarkets,
  checkPairs,
  checkTickers,
  computePairPools,
  deepestAt,
  nearFloat,
} from './market-checks.js';
export type { KnownReserveState, ReserveTimeline, ResponseTiming, TimeWindow } from './market-time.js';
export {
  CLOCK_SLACK_MS,
  clipToLatestSeen,
  computeCandidateInstants,
  computeComputedAtWindow,
  computeInstantCandidates,
  computeLatestChangeMs,
  computeStateWindow,
  findStateAt,
  isInstantKnown,
  isWindowCovered,
  MARKET_STATE_HORIZON_MS,
} from './market-time.js';
export { checkOrderbooks, computeOrderbookLevelsFast } from './orderbook-checks.js';
export type { ClaimedContract, ProvenPool, ProvenStatus, ReserveProofFindings } from './proof-checks.js';
export { checkProofs, checkReserveProof, isProofOfPool } from './proof-checks.js';
export type { KnownContractReserves, QuoteCheckInput } from './quote-checks.js';
export { checkQuotes, computeKnownContracts } from './quote-checks.js';
export type { FollowedReserveEvent } from './reserve-chain-checks.js';
export type { AuditInput, AuditResult, MirrorHistory, PoolPast, PoolSummary } from './run-checks.js';
export { runAuditChecks } from './run-checks.js';
export type {
  AuditSnapshot,
  Fetched,
  MalformedEntries,
  MarketEntry,
  MarketTiming,
  OrderbookEntry,
  PairEntry,
  PoolInfoEntry,
  ProofEntry,
  ProofSet,
  StateEntry,
  StatsSummary,
  TemplateIdentity,
  TickerEntry,
  TokenInfoEntry,
  TokenKey,
  VolumeSplit,
  VolumeWindow,
} from './snapshot.js';
export type { PoolReserves, StateCheckInput } from './state-checks.js';
export {
  checkPoolsInfo,
  checkState,
  computePoolPrice,
  computePoolTvlCc,
  computeStateReserves,
} from './state-checks.js';
export type { NamedReserveContract, TickerReserveProofs } from './ticker-proofs.js';
export { checkStats, checkTokens, checkVolume } from './volume-checks.js';
