/** Row types of the audit mirror as returned by its query functions (docs/decisions/mirror.md). */

export type MirrorVerificationStatus = 'verified' | 'mismatch' | 'could-not-check' | 'unchecked';

/** Reserve fields read from a decoded, trusted blob (when the caller could read them). */
export interface DecodedReserveFields {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  /** ledger creation time from the blob, microseconds since the epoch */
  readonly createdAtMicros: bigint;
}

/** What verifying one contract gave, as passed to recordSnapshot (keyed by contract ID). */
export interface ContractVerificationInput {
  readonly status: 'verified' | 'mismatch' | 'could-not-check';
  /** "CODE: message" of the first reason, or null */
  readonly reason?: string | null;
  /** the blob's reserve fields; null/absent = store the published /pools/proof values */
  readonly decoded?: DecodedReserveFields | null;
}

/** The verification of a snapshot's contracts, by contract ID (recordSnapshot). */
export type ContractVerifications =
  | ReadonlyMap<string, ContractVerificationInput>
  | Readonly<Record<string, ContractVerificationInput>>;

/** A snapshot kept as a failed attempt instead of history (./plan/failed-attempt.ts). */
export interface FailedAttemptRecord {
  /** its row in failed_attempts */
  readonly id: number;
  readonly reason: string;
}

export interface RecordSnapshotResult {
  /** null when the snapshot was kept as a failed attempt, not as history */
  readonly snapshotId: number | null;
  /** set when the snapshot was kept as a failed attempt (nothing else was written) */
  readonly failedAttempt: FailedAttemptRecord | null;
  /** false when this very snapshot was already in the mirror (nothing written) */
  readonly created: boolean;
  /** pools observed */
  readonly pools: number;
  /** contract IDs seen for the first time in this snapshot */
  readonly newContracts: readonly string[];
  /** distinct reserve contracts in the snapshot's proofs */
  readonly contracts: number;
}

export interface MirrorSnapshotRow {
  readonly id: number;
  readonly baseUrl: string;
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
  readonly recordedAtMs: number;
  readonly poolCount: number;
  readonly newContracts: number;
  /** names of the snapshot sections that could not be fetched */
  readonly failedSections: readonly string[];
}

/** One pool as seen in one snapshot (state + proof joined by pool id). */
export interface PoolObservation {
  readonly snapshotId: number;
  readonly poolId: string;
  readonly observedAtMs: number;
  /** the reserve contract from /pools/proof (null when the pool had no proof) */
  readonly contractId: string | null;
  /** contract_id as /pools/state published it */
  readonly stateContractId: string | null;
  readonly symbol: string | null;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly price: string | null;
  readonly tvlCc: string | null;
  readonly feeRate: string | null;
  readonly totalLpSupply: string | null;
  readonly ledgerCreatedAt: string | null;
  readonly ledgerCreatedAtMs: number | null;
  /** reserves as /pools/proof published them in this snapshot (reserveA/B are /pools/state's) */
  readonly proofReserveA: string | null;
  readonly proofReserveB: string | null;
  /** sha256 hex of the created_event_blob served in this snapshot */
  readonly blobSha256: string | null;
}

/** An observation with what the mirror knows about its reserve contract (history checks). */
export interface HistoryObservation extends PoolObservation {
  readonly verificationStatus: MirrorVerificationStatus | null;
  readonly verificationReason: string | null;
  /** reserves as stored for the contract ('blob' = read from the verified blob) */
  readonly contractReserveA: string | null;
  readonly contractReserveB: string | null;
  readonly contractTotalLpSupply: string | null;
  readonly contractCreatedAtMs: number | null;
  /** ledger creation time of the contract in µs (from the blob when fieldsSource is 'blob') */
  readonly contractCreatedAtMicros: bigint | null;
  readonly fieldsSource: 'blob' | 'published' | null;
  /** "package_id:package_name:Module:Entity" of the contract, or null */
  readonly template: string | null;
  /** the contract verified AND its reserves were read from the blob */
  readonly proven: boolean;
}

/** A reserve contract as stored (iterateContracts streams these). */
export interface MirrorContract {
  readonly contractId: string;
  readonly poolId: string;
  /** the created_event_blob bytes */
  readonly blob: Uint8Array;
  readonly updateId: string;
  readonly packageId: string;
  readonly packageName: string;
  readonly moduleName: string;
  readonly entityName: string;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly ledgerCreatedAt: string;
  readonly createdAtMs: number;
  readonly createdAtMicros: bigint;
  readonly blobSha256: string;
  readonly fieldsSource: 'blob' | 'published';
  readonly verificationStatus: MirrorVerificationStatus;
  readonly verificationReason: string | null;
  readonly firstSeenMs: number;
  readonly lastSeenMs: number;
}
