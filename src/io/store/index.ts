/**
 * The audit mirror: a record of snapshots, reserve contracts, observations and audit runs, in a
 * local SQLite file or a shared PostgreSQL database. Pipelines use the one MirrorStore interface
 * (`openMirrorStore`); the synchronous SQLite functions stay exported for the library and tests.
 * No raw connection leaves this module.
 */

export type { ArchiveResult } from './archive.js';
export { archiveMirror } from './archive.js';
export type { AuditRunInput, AuditRunRow } from './audit-runs.js';
export { loadAuditRuns, recordAuditRun, toAuditRunRow, toJson } from './audit-runs.js';
export type { ContractBatch, ContractKey, ContractKeyRange, RowDictionary } from './contract-batches.js';
export {
  batchBlob,
  CONTRACT_BATCH_COLUMNS,
  iterateContractBatches,
  iterateContractKeyRanges,
  loadContractBatch,
  packContractBatch,
} from './contract-batches.js';
export { computeContractVerification } from './contract-verification.js';
export type { HistoryPast, PoolHistoryRow } from './history-state.js';
export {
  foldOfRow,
  foldWithEarlierObservation,
  HISTORY_COLUMNS,
  loadHistoryPast,
  newPointOfRow,
  pointOfRow,
  takesLastProvenPlace,
  toHistoryPoint,
  updateHistoryState,
} from './history-state.js';
export type { ContractIdentity, ObservationKeyRow, ObservationPoint, ObservationRange } from './lookups.js';
export {
  iterateObservationKeyPages,
  iterateObservations,
  loadContractPools,
  loadContractsByKey,
  loadVerificationStatuses,
  OBSERVATION_KEY_COLUMNS,
  observationPointOfRow,
  toObservationKeyRow,
} from './lookups.js';
export type { MirrorStats, MirrorTableSize, PruneResult } from './maintenance.js';
export {
  computeMirrorStats,
  MIRROR_TABLES,
  PRUNE_INDEX,
  pruneRawResponses,
  vacuumMirror,
} from './maintenance.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
export type { Mirror, MirrorReadStats } from './mirror-db.js';
export { readMirrorReadStats } from './mirror-db.js';
export type { ContractVerifications, MirrorBackend, MirrorStore } from './mirror-store.js';
export type { OpenMirrorOptions } from './open-mirror.js';
export { guardError, guardStore, openMirror } from './open-mirror.js';
export { MIRROR_ENV, openMirrorStore, resolveMirrorTarget } from './open-store.js';
export { PG_LATEST_SCHEMA_VERSION } from './pg/migrations.js';
export type { OpenPgStoreOptions } from './pg/open-pg-store.js';
export { isPostgresTarget } from './pg/open-pg-store.js';
export type { ContractRange, HistoryQuery } from './queries.js';
export {
  countContracts,
  countSnapshots,
  iterateContracts,
  loadLatestObservations,
  loadObservationsForHistoryChecks,
  loadPoolHistory,
  loadResponseBody,
  loadSnapshots,
} from './queries.js';
export type { RecordSnapshotOptions } from './record-snapshot.js';
export { computeBlobDigest, computeSnapshotKey, recordSnapshot } from './record-snapshot.js';
export type {
  DistributedReplay,
  ReplayBatchClaim,
  ReplayBatchResults,
  ReplayRunCreated,
  ReplayRunProgress,
  ReplayRunSpec,
} from './replay-runs.js';
export { openSqliteStore } from './sqlite-store.js';
export type {
  ContractVerificationInput,
  DecodedReserveFields,
  HistoryObservation,
  MirrorContract,
  MirrorSnapshotRow,
  MirrorVerificationStatus,
  PoolObservation,
  RecordSnapshotResult,
} from './types.js';
