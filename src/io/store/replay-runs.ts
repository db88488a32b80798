/**
 * The distributed replay queue of a shared mirror (docs/mirror.md "Distributed replay"): a
 * coordinator creates a run — the contracts to replay cut into key-range batches — and worker
 * processes, on this machine or others, claim batches through the database (`FOR UPDATE SKIP
 * LOCKED`), each claim with a lease on the database's clock; a batch whose lease expired (its
 * worker was killed) is claimed again. Each batch stores its results (opaque text, encoded by the
 * replay pipeline); the coordinator reads them back in batch order. Implemented by the PostgreSQL
 * backend only (./postgres/replay-queue.ts); SQLite mirrors replay in one process.
 */
import type { ContractKeyRange } from './contract-batches.js';
import type { ContractRange } from './queries.js';

export interface ReplayRunSpec {
  readonly range: ContractRange;
  /** contracts per batch */
  readonly batchSize: number;
  /** how long a claim holds before another worker may take the batch over */
  readonly leaseMs: number;
  /** what every worker must verify with (the reserve profile as JSON) */
  readonly profileJson: string;
}

export interface ReplayRunCreated {
  readonly runId: number;
  readonly batches: number;
  readonly contracts: number;
}

/** A batch claimed by one worker; `token` identifies this claim (a re-claim gets another). */
export interface ReplayBatchClaim {
  readonly runId: number;
  readonly seq: number;
  readonly keys: ContractKeyRange;
  readonly token: string;
  readonly profileJson: string;
}

export interface ReplayRunProgress {
  readonly status: 'open' | 'done' | 'abandoned';
  readonly batches: number;
  readonly done: number;
  readonly claimed: number;
  readonly pending: number;
  /** claims whose lease has expired (their worker is presumed dead) */
  readonly expired: number;
  /** distinct workers that finished at least one batch */
  readonly workers: number;
}

export interface ReplayBatchResults {
  readonly seq: number;
  readonly results: string;
}

export interface DistributedReplay {
  /** creates a run over the contracts in `spec.range` (one transaction) */
  createReplayRun(spec: ReplayRunSpec): Promise<ReplayRunCreated>;
  /**
   * claims the next pending (or lease-expired) batch of an open run — of `runId` when given,
   * else of the oldest open run; null when none is claimable now
   */
  claimReplayBatch(worker: string, runId?: number): Promise<ReplayBatchClaim | null>;
  /** stores a claimed batch's results; false when the claim was lost (lease expired, re-claimed) */
  recordReplayBatchResults(claim: ReplayBatchClaim, results: string): Promise<boolean>;
  readReplayRunProgress(runId: number): Promise<ReplayRunProgress>;
  /** the open runs, oldest first */
  readOpenReplayRuns(): Promise<number[]>;
  /** every batch's results in batch order (call when all are done) */
  iterateReplayBatchResults(runId: number): AsyncGenerator<ReplayBatchResults, void, undefined>;
  finishReplayRun(runId: number, status: 'done' | 'abandoned'): Promise<void>;
}
