/**
 * The body /pools/proof and /pools/state share (docs/protocol/public-api.md "Pool proof", "Pool
 * state"): `{ "data": { "updated_at": <timestamp>, "pools": [<entry>, …] } }`, read whole (a bad
 * entry throws) or pool by pool (a bad entry is set aside). The entries are each endpoint's own.
 */
import { type MalformedEntry, type ParseOptions, ShapeReader } from './shape.js';

/** Reads one pool entry at `path`; throws ApiShapeError through `r` when it is malformed. */
export type PoolEntryReader<T> = (r: ShapeReader, value: unknown, path: string) => T;

export interface PoolsData<T> {
  readonly data: { readonly updated_at: string; readonly pools: readonly T[] };
}

/** A body read pool by pool: the well-formed entries, and the malformed ones set aside. */
export interface PoolsDataPerPool<T> extends PoolsData<T> {
  /** entries that did not have the documented shape (absent: none, or not read per pool) */
  readonly malformed?: readonly MalformedEntry[];
}

const DATA_KEYS = ['updated_at', 'pools'];

/** Validates the body, every entry by `readEntry`; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parsePoolsData<T>(
  json: unknown,
  options: ParseOptions,
  readEntry: PoolEntryReader<T>,
): PoolsData<T> {
  const r = new ShapeReader(options);
  const data = r.envelope(json, 'data', DATA_KEYS);
  const pools = r.array(data, 'pools', (v, path) => readEntry(r, v, path));
  return { data: { updated_at: r.timestamp(data, 'updated_at'), pools } };
}

/**
 * Validates the body pool by pool: the response-level shape (an object with `data.updated_at` and a
 * `data.pools` array) still throws ApiShapeError, but a malformed entry is returned in `malformed`
 * and the other entries are kept, so one bad pool is that pool's finding instead of hiding the rest.
 */
export function parsePoolsDataPerPool<T>(
  json: unknown,
  options: ParseOptions,
  readEntry: PoolEntryReader<T>,
): PoolsData<T> & { readonly malformed: readonly MalformedEntry[] } {
  const r = new ShapeReader(options);
  const data = r.envelope(json, 'data', DATA_KEYS);
  const { items, malformed } = r.arrayPerItem(data, 'pools', (v, path) => readEntry(r, v, path));
  return { data: { updated_at: r.timestamp(data, 'updated_at'), pools: items }, malformed };
}
