/**
 * Streaming the mirror's reserve contracts to `replay` in batches: one prepared query in raw mode,
 * only the columns replay compares, and the blobs of a batch copied into ONE ArrayBuffer (with end
 * offsets). Ordered by ledger creation time, then contract ID; each contract ID once (it is the
 * table's primary key). A batch can also be cut by its keys first (`iterateContractKeyRanges`, the
 * covering index `contracts_created`) and read later by them (`readContractBatch`), as distributed
 * replay's queue does on PostgreSQL (docs/mirror.md "Distributed replay"). The SQLite
 * reads take each pool's blob dictionary from a per-connection cache (a dictionary row is written
 * once and never changed) instead of selecting its bytes again with every row.
 */

import { readMirrorSources } from './archive.js';
import { BLOB_DICT_COLUMN, decodeStoredBlobInto, MAX_BLOB_BYTES } from './blob-codec.js';
import { mirrorDb } from './mirror-db.js';
import { guardError, type Mirror } from './open-mirror.js';
import { type ContractRange, toRangeBounds } from './queries.js';

/** A batch of stored contracts; contract i's blob is `blobs.subarray(ends[i-1] ?? 0, ends[i])`. */
export interface ContractBatch {
  readonly contractIds: string[];
  readonly poolIds: string[];
  readonly reserveA: string[];
  readonly reserveB: string[];
  readonly totalLpSupply: string[];
  /** the contract rows' integer keys (`contracts.ckey`, what observations reference) */
  readonly contractKeys: number[];
  /** every blob of the batch, back to back, in a buffer of its own (transferable) */
  readonly blobs: Uint8Array;
  readonly ends: Uint32Array;
}

/** The blob of contract `i` of a batch (a view, no copy). */
export function batchBlob(b: ContractBatch, i: number): Uint8Array {
  return b.blobs.subarray(i === 0 ? 0 : (b.ends[i - 1] ?? 0), b.ends[i] ?? 0);
}

/** The row columns of a batch without the dictionary (SQLite reads dictionaries once: ./blob-dictionaries.ts). */
const CONTRACT_ROW_COLUMNS =
  'contract_id, pool_id, blob, reserve_a, reserve_b, total_lp_supply, blob_dict, ckey';

/** The columns packContractBatch takes by default, in its order: the row's, then its dictionary. */
export const CONTRACT_BATCH_COLUMNS = `${CONTRACT_ROW_COLUMNS}, ${BLOB_DICT_COLUMN}`;

/** The dictionary bytes of a row (default: its 9th column, BLOB_DICT_COLUMN). */
export type RowDictionary = (row: unknown[]) => unknown;

const dictionaryColumn: RowDictionary = (r) => r[8];

/**
 * Packs rows of CONTRACT_ROW_COLUMNS (contract_id, pool_id, stored blob, reserve_a, reserve_b,
 * total_lp_supply, blob_dict, ckey), each row's dictionary given by `dictOf` (default: a 9th
 * column), into a batch of original blobs (both backends). The blobs are inflated straight into
 * one reused buffer and copied once into the batch's own.
 */
export function packContractBatch(
  rows: readonly unknown[][],
  dictOf: RowDictionary = dictionaryColumn,
): ContractBatch {
  const ends = new Uint32Array(rows.length);
  const b = {
    contractIds: new Array<string>(rows.length),
    poolIds: new Array<string>(rows.length),
    reserveA: new Array<string>(rows.length),
    reserveB: new Array<string>(rows.length),
    totalLpSupply: new Array<string>(rows.length),
    contractKeys: new Array<number>(rows.length),
    ends,
  };
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as unknown[];
    const id = r[0] as string;
    const stored = r[2];
    const dictId = r[6];
    arena = withRoom(arena, at + (stored instanceof Uint8Array ? stored.length : 0) + MAX_BLOB_BYTES + 1);
    at += decodeStoredBlobInto(String(id), stored, dictId, dictId === null ? null : dictOf(r), arena, at);
    ends[i] = at;
    b.contractIds[i] = id;
    b.poolIds[i] = r[1] as string;
    b.reserveA[i] = r[3] as string;
    b.reserveB[i] = r[4] as string;
    b.totalLpSupply[i] = r[5] as string;
    b.contractKeys[i] = Number(r[7]);
  }
  // slice: a buffer of the batch's own (transferable), the arena stays for the next batch
  return { ...b, blobs: arena.slice(0, at) };
}

/** Where packContractBatch inflates a batch's blobs (one per thread, grown when needed). */
let arena: Uint8Array = new Uint8Array(0);

/** `buf` when it holds `size` bytes, else a buffer twice as large (or `size`) with its bytes. */
function withRoom(buf: Uint8Array, size: number): Uint8Array {
  if (buf.length >= size) return buf;
  const grown = new Uint8Array(Math.max(size, 2 * buf.length));
  grown.set(buf);
  return grown;
}

/** Each open mirror's blob dictionaries read so far, by id (rows are insert-only). */
const DICTIONARIES = new WeakMap<Mirror, Map<number, Uint8Array>>();

/**
 * The dictionary of a row of CONTRACT_ROW_COLUMNS through the mirror's cache; `preload` reads every
 * dictionary first (needed while a statement iterates: the connection runs one at a time).
 */
function sqliteRowDictionary(mirror: Mirror, preload: boolean): RowDictionary {
  let cache = DICTIONARIES.get(mirror);
  if (cache === undefined) {
    cache = new Map();
    DICTIONARIES.set(mirror, cache);
  }
  const known = cache;
  const db = mirrorDb(mirror);
  if (preload)
    for (const [id, dict] of db
      .prepare('SELECT id, dict FROM blob_dictionaries')
      .raw(true)
      .iterate() as IterableIterator<[number, Uint8Array]>)
      known.set(Number(id), dict);
  const one = preload ? null : db.prepare('SELECT dict FROM blob_dictionaries WHERE id = ?').pluck();
  return (r) => {
    const id = Number(r[6]);
    const hit = known.get(id);
    if (hit !== undefined || one === null) return hit;
    const d: unknown = one.get(id);
    if (d instanceof Uint8Array) known.set(id, d);
    return d;
  };
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
  const [from, to] = toRangeBounds(range);
  try {
    const cols = CONTRACT_ROW_COLUMNS;
    const t = readMirrorSources(mirror);
    const dictOf = sqliteRowDictionary(mirror, true);
    const stmt = mirrorDb(mirror).prepare(
      range.poolId === undefined
        ? `SELECT ${cols} FROM ${t.contracts} WHERE created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`
        : `SELECT ${cols} FROM ${t.contracts} WHERE pool_id = ? AND created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    const it = (
      range.poolId === undefined ? stmt.iterate(from, to) : stmt.iterate(range.poolId, from, to)
    ) as IterableIterator<unknown[]>;
    let rows: unknown[][] = [];
    for (const r of it) {
      rows.push(r);
      if (rows.length >= batchSize) {
        yield packContractBatch(rows, dictOf);
        rows = [];
      }
    }
    if (rows.length > 0) yield packContractBatch(rows, dictOf);
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

/** Cuts contract keys, fed in replay order, into ranges of at most `batchSize` keys (both backends). */
export interface KeyRangeCutter {
  /** takes the next key; returns the range it completes, or null */
  add(key: ContractKey): ContractKeyRange | null;
  /** the last, partial range once every key was added; null when there is none */
  end(): ContractKeyRange | null;
}

export function createKeyRangeCutter(batchSize: number): KeyRangeCutter {
  let first: ContractKey | null = null;
  let last: ContractKey | null = null;
  let count = 0;
  return {
    add(key) {
      last = key;
      if (first === null) first = key;
      count += 1;
      if (count < batchSize) return null;
      const done = { first, last, count };
      first = null;
      count = 0;
      return done;
    },
    end: () => (first !== null && last !== null ? { first, last, count } : null),
  };
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
  const [from, to] = toRangeBounds(range);
  try {
    const t = readMirrorSources(mirror);
    const stmt = mirrorDb(mirror).prepare(
      `SELECT created_at_ms, contract_id FROM ${t.archived ? t.contracts : 'contracts INDEXED BY contracts_created'}
       WHERE created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    const cut = createKeyRangeCutter(batchSize);
    for (const r of stmt.iterate(from, to) as IterableIterator<[number, string]>) {
      const done = cut.add([r[0], r[1]]);
      if (done !== null) yield done;
    }
    const rest = cut.end();
    if (rest !== null) yield rest;
  } catch (e) {
    throw guardError(mirror, 'iterateContractKeyRanges', e);
  }
}

/** The contracts of one key range as a batch (what a replay worker reads for itself). */
export function readContractBatch(mirror: Mirror, r: ContractKeyRange): ContractBatch {
  try {
    const t = readMirrorSources(mirror);
    const stmt = mirrorDb(mirror).prepare(
      `SELECT ${CONTRACT_ROW_COLUMNS} FROM ${t.contracts}
       WHERE (created_at_ms, contract_id) >= (?, ?) AND (created_at_ms, contract_id) <= (?, ?)
       ORDER BY created_at_ms, contract_id`,
    );
    stmt.raw(true);
    const rows = stmt.all(r.first[0], r.first[1], r.last[0], r.last[1]) as unknown[][];
    return packContractBatch(rows, sqliteRowDictionary(mirror, false));
  } catch (e) {
    throw guardError(mirror, 'readContractBatch', e);
  }
}
