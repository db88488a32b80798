/**
 * GET /pools/info (docs/protocol/public-api.md "Pool"): pool definitions (tokens, fee rate, admin fee share).
 */
import { arrayField, type MalformedEntry, type ParseOptions, ShapeReader } from './shape.js';

export interface PoolInfo {
  readonly contract_id: string;
  readonly pool_id: string;
  readonly token_a_instrument_id: string;
  readonly token_a_instrument_admin: string;
  readonly token_b_instrument_id: string;
  readonly token_b_instrument_admin: string;
  /** fraction, plain decimal string */
  readonly fee_rate: string;
  /** fraction of each pool fee going to the protocol (api-decisions §2), plain decimal string */
  readonly admin_fee_share: string;
}

export interface PoolsInfoResponse {
  readonly pools: readonly PoolInfo[];
}

const INFO_ENTRY = {
  contract_id: 'hex',
  pool_id: 'nonEmptyString',
  token_a_instrument_id: 'nonEmptyString',
  token_a_instrument_admin: 'nonEmptyString',
  token_b_instrument_id: 'nonEmptyString',
  token_b_instrument_admin: 'nonEmptyString',
  fee_rate: 'decimal',
  admin_fee_share: 'decimal',
} as const;

const readInfoEntry = (r: ShapeReader, v: unknown, path: string): PoolInfo => r.fields(v, path, INFO_ENTRY);

/** Validates a /pools/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parsePoolsInfoResponse(json: unknown, options: ParseOptions = {}): PoolsInfoResponse {
  return new ShapeReader(options).fields(json, '', { pools: arrayField(readInfoEntry) });
}

/** A /pools/info body read pool by pool: the well-formed entries, and the malformed ones set aside. */
export interface PoolsInfoPerPool extends PoolsInfoResponse {
  /** entries that did not have the documented shape (absent: none, or not read per pool) */
  readonly malformed?: readonly MalformedEntry[];
}

/**
 * Validates a /pools/info body pool by pool: the response-level shape still throws
 * ApiShapeError; a malformed pool entry is returned in `malformed`, the others are kept — one bad
 * entry is that pool's finding, not the endpoint's failure.
 */
export function parsePoolsInfoPerPool(json: unknown, options: ParseOptions = {}): PoolsInfoPerPool {
  const r: ShapeReader = new ShapeReader(options);
  const root = r.object(json, '', ['pools']);
  const { items, malformed } = r.arrayPerItem(root, 'pools', (v, path) => readInfoEntry(r, v, path));
  return { pools: items, malformed };
}
