/**
 * GET /pools/state (docs/protocol/public-api.md "Pool state", api-decisions §1–§2): live reserves and prices.
 */
import {
  type PoolsData,
  type PoolsDataPerPool,
  parsePoolsData,
  parsePoolsDataPerPool,
} from './pools-data.js';
import type { ParseOptions, ShapeNode, ShapeReader } from './shape.js';

export interface StateInstrument {
  readonly id: string;
  readonly admin: string;
  readonly symbol: string;
}

export interface PoolStateInfo {
  readonly pool_id: string;
  readonly contract_id: string;
  /** `<BASE>-<QUOTE>` upper case; symbols may contain '-', parse from the right */
  readonly symbol: string;
  readonly token_a_instrument: StateInstrument;
  readonly token_b_instrument: StateInstrument;
  /** 10-decimal fraction */
  readonly fee_rate: string;
  /** 10-decimal token amounts */
  readonly reserve_a: string;
  readonly reserve_b: string;
  /** reserve_b / reserve_a, 10 decimals; null while the pool has no reserves */
  readonly price: string | null;
  /** 2 × the CC-side reserve, 10 decimals */
  readonly tvl_cc: string;
}

export type PoolsStateResponse = PoolsData<PoolStateInfo>;
/** A /pools/state body read pool by pool: the well-formed entries, and the malformed ones set aside. */
export type PoolsStatePerPool = PoolsDataPerPool<PoolStateInfo>;

const KEYS = [
  'pool_id',
  'contract_id',
  'symbol',
  'token_a_instrument',
  'token_b_instrument',
  'fee_rate',
  'reserve_a',
  'reserve_b',
  'price',
  'tvl_cc',
];

function readInstrument(r: ShapeReader, node: ShapeNode, key: string): StateInstrument {
  const i = r.child(node, key, ['id', 'admin', 'symbol']);
  return {
    id: r.nonEmptyString(i, 'id'),
    admin: r.nonEmptyString(i, 'admin'),
    symbol: r.nonEmptyString(i, 'symbol'),
  };
}

function readStateEntry(r: ShapeReader, v: unknown, path: string): PoolStateInfo {
  const p = r.object(v, path, KEYS);
  return {
    pool_id: r.nonEmptyString(p, 'pool_id'),
    contract_id: r.hex(p, 'contract_id'),
    symbol: r.nonEmptyString(p, 'symbol'),
    token_a_instrument: readInstrument(r, p, 'token_a_instrument'),
    token_b_instrument: readInstrument(r, p, 'token_b_instrument'),
    fee_rate: r.decimal10(p, 'fee_rate'),
    reserve_a: r.decimal10(p, 'reserve_a'),
    reserve_b: r.decimal10(p, 'reserve_b'),
    price: r.nullableDecimal10(p, 'price'),
    tvl_cc: r.decimal10(p, 'tvl_cc'),
  };
}

/** Validates a /pools/state body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parsePoolsStateResponse(json: unknown, options: ParseOptions = {}): PoolsStateResponse {
  return parsePoolsData(json, options, readStateEntry);
}

/**
 * Validates a /pools/state body pool by pool: the response-level shape still throws
 * ApiShapeError; a malformed pool entry is returned in `malformed`, the others are kept.
 */
export function parsePoolsStatePerPool(json: unknown, options: ParseOptions = {}): PoolsStatePerPool {
  return parsePoolsDataPerPool(json, options, readStateEntry);
}
