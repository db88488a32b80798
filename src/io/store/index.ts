/**
 * The audit mirror: a record of snapshots, reserve contracts, observations and audit runs, in a
 * local SQLite file or a shared PostgreSQL database. Pipelines use the one MirrorStore interface
 * (`openMirrorStore`); the synchronous SQLite functions stay exported for the library and tests.
 * No raw connection leaves this module.
 */

export type { ArchiveResult } from './archive.js';
export { archiveMirror } from './archive.js';
export type { AuditRunInput, AuditRunRow } from './audit-runs.js';
export { readAuditRuns, recordAuditRun, toAuditRunRow, toJson } from './audit-runs.js';
export type { ContractBatch, ContractKey, ContractKeyRange, RowDictionary } from './contract-batches.js';
export {
  batchBlob,
  CONTRACT_BATCH_COLUMNS,
  iterateContractBatches,
  iterateContractKeyRanges,
  packContractBatch,
  readContractBatch,
} from './contract-batches.js';
export { computeContractVerification } from './contract-verification.js';
export type {
  LedgerEventRow,
  LedgerFollowBatch,
  LedgerFollowKey,
  LedgerFollowState,
  LedgerFollowStream,
  RecordLedgerEventsResult,
} from './ledger-events.js';
export type { ContractIdentity, ObservationKeyRow, ObservationPoint, ObservationRange } from './lookups.js';
export {
  iterateObservationKeyPages,
  iterateObservations,
  OBSERVATION_KEY_COLUMNS,
  observationPointOfRow,
  readContractPools,
  readContractsByKey,
  readVerificationStatuses,
  toObservationKeyRow,
} from './lookups.js';
export type { MirrorStats, MirrorTableSize, PruneResult } from './maintenance.js';
export {
  MIRROR_TABLES,
  PRUNE_INDEX,
  pruneRawResponses,
  readMirrorStats,
  vacuumMirror,
} from './maintenance.js';
export type { Mirror, MirrorReadStats } from './mirror-db.js';
export { readMirrorReadStats } from './mirror-db.js';
export type { ArchivingMirrorStore, MirrorBackend, MirrorStore } from './mirror-store.js';
export { isArchivingStore } from './mirror-store.js';
export { isPostgresTarget, MIRROR_ENV, resolveMirrorTarget } from './mirror-target.js';
export type { OpenMirrorOptions } from './open-mirror.js';
export { guardError, guardStore, openMirror } from './open-mirror.js';
export { openMirrorStore } from './open-store.js';
export type { HistoryPast, PoolHistoryRow } from './plan/history-plan.js';
export { toHistoryPoint } from './plan/history-plan.js';
export type { OpenPgStoreOptions } from './postgres/open-pg-store.js';
export type { ContractRange, HistoryQuery } from './queries.js';
export {
  countContracts,
  countSnapshots,
  iterateContracts,
  readLatestObservations,
  readObservationsForHistoryChecks,
  readPoolHistory,
  readResponseBody,
  readSnapshots,
} from './queries.js';
export type { RecordSnapshotOptions } from './record-snapshot.js';
export { computeBlobDigest, computeSnapshotKey } from './record-snapshot.js';
export type * from './replay-runs.js';
export { LATEST_SCHEMA_VERSION } from './schema/versions.js';
export { readHistoryPast } from './sqlite/apply-history.js';
export { recordSnapshot } from './sqlite/apply-snapshot.js';
export { openSqliteStore } from './sqlite-store.js';
export type * from './types.js';
