/**
 * THE store interface of the audit mirror (docs/mirror.md "Two backends"): every read and write a
 * pipeline makes, as async methods, implemented twice — the embedded SQLite file
 * (./sqlite-store.ts, the synchronous functions of this folder behind async methods, semantics
 * unchanged) and PostgreSQL (./postgres/, node-postgres with a pool). `openMirrorStore` (./open-store.ts)
 * picks the backend from the target. No raw connection leaves src/io/store through this interface.
 * A capability only one backend has is an optional interface with a check (`isArchivingStore`),
 * never a method that throws.
 */
import type { ApiSnapshot } from '../../core/wire/index.js';
import type { ArchiveResult } from './archive.js';
import type { AuditRunInput, AuditRunRow } from './audit-runs.js';
import type { ContractBatch, ContractKeyRange } from './contract-batches.js';
import type {
  LedgerEventRow,
  LedgerFollowBatch,
  LedgerFollowKey,
  LedgerFollowState,
  LedgerFollowStream,
  RecordLedgerEventsResult,
} from './ledger-events.js';
import type { ContractIdentity, ObservationKeyRow, ObservationPoint, ObservationRange } from './lookups.js';
import type { MirrorStats, PruneResult } from './maintenance.js';
import type { MirrorReadStats } from './mirror-db.js';
import type { HistoryPast } from './plan/history-plan.js';
import type { ContractRange, HistoryQuery } from './queries.js';
import type { RecordSnapshotOptions } from './record-snapshot.js';
import type { DistributedReplay } from './replay-runs.js';
import type {
  ContractVerifications,
  HistoryObservation,
  MirrorSnapshotRow,
  MirrorVerificationStatus,
  PoolObservation,
  RecordSnapshotResult,
} from './types.js';

export type MirrorBackend = 'sqlite' | 'postgres';

export interface MirrorStore {
  readonly backend: MirrorBackend;
  /** the file path (SQLite) or the URL without its password (PostgreSQL): safe to print */
  readonly path: string;
  readonly readonly: boolean;
  readonly schemaVersion: number;
  /** the distributed replay queue (PostgreSQL only; null for SQLite) */
  readonly distributed: DistributedReplay | null;

  /** one snapshot in ONE transaction (idempotent by snapshot key) */
  recordSnapshot(
    snapshot: ApiSnapshot,
    verifications?: ContractVerifications,
    options?: RecordSnapshotOptions,
  ): Promise<RecordSnapshotResult>;
  recordAuditRun(run: AuditRunInput): Promise<number>;
  readAuditRuns(options?: { readonly limit?: number }): Promise<AuditRunRow[]>;

  readVerificationStatuses(contractIds: readonly string[]): Promise<Map<string, MirrorVerificationStatus>>;
  readContractPools(contractIds: readonly string[]): Promise<Map<string, string>>;
  readHistoryPast(current: ReadonlyMap<string, string>, horizonMs: number): Promise<HistoryPast | null>;
  readObservationsForHistoryChecks(query?: HistoryQuery): Promise<Map<string, HistoryObservation[]>>;
  readLatestObservations(): Promise<PoolObservation[]>;
  readPoolHistory(poolId: string, options?: { readonly limit?: number }): Promise<PoolObservation[]>;
  readSnapshots(options?: { readonly limit?: number }): Promise<MirrorSnapshotRow[]>;
  readResponseBody(sha256: string): Promise<Uint8Array | null>;
  countSnapshots(): Promise<number>;
  countContracts(options?: {
    readonly status?: MirrorVerificationStatus;
    readonly fromMs?: number;
    readonly toMs?: number;
  }): Promise<number>;

  /** the contracts in replay order (ledger ms, contract ID), in batches; one consistent read */
  iterateContractBatches(
    range?: ContractRange,
    batchSize?: number,
  ): AsyncGenerator<ContractBatch, void, undefined>;
  /** the key ranges of consecutive batches (keys only, no blob) */
  iterateContractKeyRanges(
    range?: ContractRange,
    batchSize?: number,
  ): AsyncGenerator<ContractKeyRange, void, undefined>;
  readContractBatch(keys: ContractKeyRange): Promise<ContractBatch>;
  /** the observations of a period ordered by pool, time, snapshot; one consistent read */
  iterateObservations(range?: ObservationRange): AsyncGenerator<ObservationPoint, void, undefined>;
  /** the same observations with the contract's row key (replay), in pages; one consistent read */
  iterateObservationKeyPages(range?: ObservationRange): AsyncGenerator<ObservationKeyRow[], void, undefined>;
  /** the ID and ledger time of each contract row key that the mirror holds */
  readContractsByKey(keys: readonly number[]): Promise<Map<number, ContractIdentity>>;

  /** a batch of followed ledger events and its offset in ONE transaction (docs/mirror.md "Following the ledger") */
  recordLedgerEvents(batch: LedgerFollowBatch): Promise<RecordLedgerEventsResult>;
  /** where following (participant, party) has reached, or null when it never ran */
  readLedgerFollowState(key: LedgerFollowKey): Promise<LedgerFollowState | null>;
  /** every (participant, party) the mirror follows, with the offset it reached (ordered by key) */
  readLedgerFollowStreams(): Promise<LedgerFollowStream[]>;
  /**
   * the followed events of (participant, party) in stream order; with `poolIds`, those of these pools
   * and every created event not placed in a pool; with `afterOffset` too, only the pools' events after
   * it and each pool's last contract at or below it (its seed), so a check continues from there
   */
  readLedgerEvents(
    key: LedgerFollowKey,
    poolIds?: readonly string[],
    afterOffset?: number,
  ): Promise<LedgerEventRow[]>;

  readMirrorStats(): Promise<MirrorStats>;
  pruneRawResponses(beforeMs: number): Promise<PruneResult>;
  vacuumMirror(): Promise<{ readonly beforeBytes: number; readonly afterBytes: number }>;
  /** rows and statements read by the history reads of this handle (tests) */
  readMirrorReadStats(): MirrorReadStats;
  close(): Promise<void>;
}

/** A store that can archive old rows (the SQLite backend; docs/mirror.md "Archive"). */
export interface ArchivingMirrorStore extends MirrorStore {
  /** moves contracts and observations recorded before `beforeMs` into the archive */
  archiveMirror(beforeMs: number): Promise<ArchiveResult>;
}

/** Whether `store` can archive (a PostgreSQL mirror keeps every row). */
export function isArchivingStore(store: MirrorStore): store is ArchivingMirrorStore {
  return typeof (store as Partial<ArchivingMirrorStore>).archiveMirror === 'function';
}
