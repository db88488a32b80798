/**
 * Streaming the mirror's reserve contracts to `replay` in batches (docs/decisions/mirror.md,
 * "replay workers"): one prepared query in raw mode, only the columns replay compares, and the
 * blobs of a batch copied into ONE ArrayBuffer (with end offsets) so the batch can be transferred
 * to a worker thread without copying. Ordered by ledger creation time, then contract ID; each
 * contract ID once (it is the table's primary key). For large replays the main thread only scans
 * the keys (`iterateContractKeyRanges`, the covering index `contracts_created`) and each worker
 * reads its batches itself from its own read-only connection (`loadContractBatch`).
 */

import { BLOB_DICT_COLUMN, decodeStoredBlob } from './blob-codec.js';
import { mirrorDb } from './mirror-db.js';
import { guardError, type Mirror } from './open-mirror.js';
import type { ContractRange } from './queries.js';

/** A batch of stored contracts; contract i's blob is `blobs.subarray(ends[i-1] ?? 0, ends[i])`. */
export interface ContractBatch {
  readonly contractIds: string[];
  readonly poolIds: string[];
  readonly reserveA: string[];
  readonly reserveB: string[];
  readonly totalLpSupply: string[];
  /** every blob of the batch, back to back, in a buffer of its own (transferable) */
  readonly blobs: Uint8Array;
  readonly ends: Uint32Array;
}

/** The blob of contract `i` of a batch (a view, no copy). */
export function batchBlob(b: ContractBatch, i: number): Uint8Array {
  return b.blobs.subarray(i === 0 ? 0 : (b.ends[i - 1] ?? 0), b.ends[i] ?? 0);
}

/** The columns packContractBatch takes, in its order (both backends). */
export const CONTRACT_BATCH_COLUMNS = `contract_id, pool_id, blob, reserve_a, reserve_b, total_lp_supply, blob_dict,
  ${BLOB_DICT_COLUMN}`;

/**
 * Packs rows of CONTRACT_BATCH_COLUMNS (contract_id, pool_id, stored blob, reserve_a, reserve_b,
 * total_lp_supply, blob_dict, dictionary) into a batch of original blobs (both backends).
 */
export function packContractBatch(rows: readonly unknown[][]): ContractBatch {
  const originals = rows.map((r) => decodeStoredBlob(String(r[0]), r[2], r[6], r[7]));
  let size = 0;
  for (const b of originals) size += b.length;
  const blobs = new Uint8Array(new ArrayBuffer(size));
  const ends = new Uint32Array(rows.length);
  const b: ContractBatch = {
    contractIds: new Array<string>(rows.length),
    poolIds: new Array<string>(rows.length),
    reserveA: new Array<string>(rows.length),
    reserveB: new Array<string>(rows.length),
    totalLpSupply: new Array<string>(rows.length),
    blobs,
    ends,
  };
  let at = 0;
  rows.forEach((r, i) => {
    b.contractIds[i] = r[0] as string;
    b.poolIds[i] = r[1] as string;
    const blob = originals[i] as Uint8Array;
    blobs.set(blob, at);
    at += blob.length;
    ends[i] = at;
    b.reserveA[i] = r[3] as string;
    b.reserveB[i] = r[4] as string;
    b.totalLpSupply[i] = r[5] as string;
  });
  return b;
}

/**
 * Streams the stored contracts in `range` as batches of at most `batchSize` (default 512). Do not
 * write to the same mirror while iterating.
 */
export function* iterateContractBatches(
  mirror: Mirror,
  range: ContractRange = {},
  batchSize = 512,
): Generator<ContractBatch, void, undefined> {
  const from = range.fromMs ?? Number.MIN_SAFE_INTEGER;
  const to = range.toMs ?? Number.MAX_SAFE_INTEGER;
  try {
    const cols = CONTRACT_BATCH_COLUMNS;
    const stmt = mirrorDb(mirror).prepare(
      range.poolId === undefined
        ? `SELECT ${cols} FROM contracts WHERE created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`
        : `SELECT ${cols} FROM contracts WHERE pool_id = ? AND created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    const it = (
      range.poolId === undefined ? stmt.iterate(from, to) : stmt.iterate(range.poolId, from, to)
    ) as IterableIterator<unknown[]>;
    let rows: unknown[][] = [];
    for (const r of it) {
      rows.push(r);
      if (rows.length >= batchSize) {
        yield packContractBatch(rows);
        rows = [];
      }
    }
    if (rows.length > 0) yield packContractBatch(rows);
  } catch (e) {
    throw guardError(mirror, 'iterateContractBatches', e);
  }
}

/** A contract's place in replay order: (ledger creation ms, contract ID). */
export type ContractKey = readonly [createdAtMs: number, contractId: string];

/** A run of consecutive contracts in replay order, first and last included. */
export interface ContractKeyRange {
  readonly first: ContractKey;
  readonly last: ContractKey;
  readonly count: number;
}

/**
 * Streams the key ranges of consecutive batches of at most `batchSize` contracts in `range`,
 * reading only the index `contracts_created` (never a row or a blob).
 */
export function* iterateContractKeyRanges(
  mirror: Mirror,
  range: ContractRange = {},
  batchSize = 512,
): Generator<ContractKeyRange, void, undefined> {
  const from = range.fromMs ?? Number.MIN_SAFE_INTEGER;
  const to = range.toMs ?? Number.MAX_SAFE_INTEGER;
  try {
    const stmt = mirrorDb(mirror).prepare(
      `SELECT created_at_ms, contract_id FROM contracts INDEXED BY contracts_created
       WHERE created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    let first: ContractKey | null = null;
    let last: ContractKey | null = null;
    let count = 0;
    for (const r of stmt.iterate(from, to) as IterableIterator<[number, string]>) {
      last = [r[0], r[1]];
      if (first === null) first = last;
      count += 1;
      if (count >= batchSize) {
        yield { first, last, count };
        first = null;
        count = 0;
      }
    }
    if (first !== null && last !== null) yield { first, last, count };
  } catch (e) {
    throw guardError(mirror, 'iterateContractKeyRanges', e);
  }
}

/** The contracts of one key range as a batch (what a replay worker reads for itself). */
export function loadContractBatch(mirror: Mirror, r: ContractKeyRange): ContractBatch {
  try {
    const stmt = mirrorDb(mirror).prepare(
      `SELECT ${CONTRACT_BATCH_COLUMNS} FROM contracts
       WHERE (created_at_ms, contract_id) >= (?, ?) AND (created_at_ms, contract_id) <= (?, ?)
       ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    return packContractBatch(stmt.all(r.first[0], r.first[1], r.last[0], r.last[1]) as unknown[][]);
  } catch (e) {
    throw guardError(mirror, 'loadContractBatch', e);
  }
}
