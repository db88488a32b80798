/**
 * GET /pools/state (docs/protocol/public-api.md "Pool state", api-decisions §1–§2): live reserves and prices.
 */
import {
  type PoolsData,
  type PoolsDataPerPool,
  parsePoolsData,
  parsePoolsDataPerPool,
} from './pools-data.js';
import { objectField, type ParseOptions, type ShapeReader } from './shape.js';

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

const INSTRUMENT = objectField({
  id: 'nonEmptyString',
  admin: 'nonEmptyString',
  symbol: 'nonEmptyString',
} as const);

const STATE_ENTRY = {
  pool_id: 'nonEmptyString',
  contract_id: 'hex',
  symbol: 'nonEmptyString',
  token_a_instrument: INSTRUMENT,
  token_b_instrument: INSTRUMENT,
  fee_rate: 'decimal10',
  reserve_a: 'decimal10',
  reserve_b: 'decimal10',
  price: 'nullableDecimal10',
  tvl_cc: 'decimal10',
} as const;

const readStateEntry = (r: ShapeReader, v: unknown, path: string): PoolStateInfo =>
  r.fields(v, path, STATE_ENTRY);

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
