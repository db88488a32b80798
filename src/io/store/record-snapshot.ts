/**
 * What both appliers of a snapshot share (docs/decisions/mirror.md "crash safety"; the rows are
 * planned by ./plan/snapshot-plan.ts and written by ./sqlite/apply-snapshot.ts or
 * ./postgres/apply-snapshot.ts, in ONE transaction): the idempotence key — a snapshot is keyed by
 * sha256(base URL, start time, response digests), and recording it again writes nothing — the
 * blob digest, and the options of recordSnapshot.
 */
import { createHash } from 'node:crypto';
import type { ApiSnapshot } from '../../core/wire/index.js';
import type { FailedAttempt } from './plan/failed-attempt.js';
import { computeSnapshotPlan, type SnapshotPlan, type SnapshotPlanInput } from './plan/snapshot-plan.js';
import { defineColumns } from './row-columns.js';
import type { ContractVerificationInput, ContractVerifications, RecordSnapshotResult } from './types.js';

export interface RecordSnapshotOptions {
  readonly now?: () => number;
  /** test seam: called inside the transaction just before COMMIT (crash-safety tests; PostgreSQL awaits it) */
  readonly beforeCommit?: () => void | Promise<void>;
}

/** The idempotence key of a snapshot: sha256 hex over its base URL, start time and responses. */
export function computeSnapshotKey(snapshot: ApiSnapshot): string {
  const h = createHash('sha256');
  h.update(`${snapshot.baseUrl}\n${snapshot.startedAtMs}\n`);
  for (const r of snapshot.raw) h.update(`${r.method} ${r.url} ${r.status} ${r.sha256} ${r.startedAtMs}\n`);
  return h.digest('hex');
}

const digests = new Map<string, string>();
/** sha256 hex of a base64 blob's bytes (memoised: the same blob appears in both proof sets). */
export function computeBlobDigest(b64: string): string {
  let d = digests.get(b64);
  if (d === undefined) {
    d = createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');
    if (digests.size > 10_000) digests.clear();
    digests.set(b64, d);
  }
  return d;
}

/** The verifications as a map by contract ID. */
function toVerificationMap(v: ContractVerifications): ReadonlyMap<string, ContractVerificationInput> {
  return v instanceof Map ? v : new Map(Object.entries(v));
}

/**
 * The rows recording `snapshot` writes (./plan/snapshot-plan.ts), given what the applier read of the
 * mirror (`held`: the stored contracts, the reusable bodies); the rest both appliers fill in alike:
 * the clock of `options`, the verifications by contract ID, the memoised blob digest.
 */
export function computeRecordingPlan(
  snapshot: ApiSnapshot,
  snapshotKey: string,
  verifications: ContractVerifications,
  options: RecordSnapshotOptions,
  held: Pick<SnapshotPlanInput, 'stored' | 'reusableBodies'>,
): SnapshotPlan {
  return computeSnapshotPlan({
    snapshot,
    snapshotKey,
    recordedAtMs: (options.now ?? Date.now)(),
    verifications: toVerificationMap(verifications),
    blobDigest: computeBlobDigest,
    ...held,
  });
}

/** A blob's bytes as a Buffer (no copy). */
export function toBuffer(b: Uint8Array): Buffer {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** The result of recording a snapshot the mirror holds already (id `snapshotId`, `pools` pools): nothing written. */
export function toExistingResult(snapshotId: unknown, pools: unknown): RecordSnapshotResult {
  return {
    snapshotId: Number(snapshotId),
    failedAttempt: null,
    created: false,
    pools: Number(pools),
    newContracts: [],
    contracts: 0,
  };
}

/** The columns of a failed attempt's row (schema 12). */
export const FAILED_ATTEMPT_COLUMNS = defineColumns(
  'failed_attempts',
  `attempt_key text, base_url text, started_at_ms bigint, finished_at_ms bigint, recorded_at_ms bigint,
   reason text, failed_sections text`,
);

/** The row of a failed attempt (keyed like a snapshot: recording it twice writes one row). */
export function computeFailedAttemptRow(
  snapshotKey: string,
  snapshot: ApiSnapshot,
  attempt: FailedAttempt,
  recordedAtMs: number,
): Record<string, unknown> {
  return {
    attemptKey: snapshotKey,
    baseUrl: snapshot.baseUrl,
    startedAtMs: snapshot.startedAtMs,
    finishedAtMs: snapshot.finishedAtMs,
    recordedAtMs,
    reason: attempt.reason,
    failedSections: JSON.stringify(attempt.failedSections),
  };
}

/** The result of recording snapshot `snapshotId` (created now). */
export function toRecordedResult(
  snapshotId: number,
  pools: number,
  newContracts: readonly string[],
  contracts: number,
): RecordSnapshotResult {
  return { snapshotId, failedAttempt: null, created: true, pools, newContracts, contracts };
}

/** The result of recording a failed attempt (row `id`; `created` false when it was there already). */
export function toFailedAttemptResult(id: unknown, reason: string, created: boolean): RecordSnapshotResult {
  return {
    snapshotId: null,
    failedAttempt: { id: Number(id), reason },
    created,
    pools: 0,
    newContracts: [],
    contracts: 0,
  };
}

/** Does the mirror hold a snapshot that observed a pool? */
export const MIRROR_KNOWS_POOLS_SQL = 'SELECT EXISTS (SELECT 1 FROM snapshots WHERE pool_count > 0)';
