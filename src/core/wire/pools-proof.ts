/**
 * GET /pools/proof (docs/protocol/public-api.md "Pool proof", api-decisions §3): the latest reserve contract
 * of each active pool with its created_event_blob, for contract-ID verification.
 */
import {
  type PoolsData,
  type PoolsDataPerPool,
  parsePoolsData,
  parsePoolsDataPerPool,
} from './pools-data.js';
import { objectField, type ParseOptions, type ShapeNode, type ShapeReader } from './shape.js';

export interface ProofInstrument {
  readonly id: string;
  readonly admin: string;
}

export interface ReserveContractInfo {
  /** lower-case hex contract ID */
  readonly contract_id: string;
  readonly update_id: string;
  readonly template: {
    readonly package_id: string;
    readonly package_name: string;
    readonly module_name: string;
    readonly entity_name: string;
  };
  readonly ledger_created_at: string;
  /** base64 of the created event blob (decode with the codec) */
  readonly created_event_blob: string;
  readonly reserve_a: string;
  readonly reserve_b: string;
  readonly total_lp_supply: string;
}

export interface PoolProofInfo {
  readonly pool_id: string;
  readonly pool_cid: string;
  readonly token_a_instrument: ProofInstrument;
  readonly token_b_instrument: ProofInstrument;
  readonly reserve_contract: ReserveContractInfo;
}

export type PoolsProofResponse = PoolsData<PoolProofInfo>;
/** A /pools/proof body read pool by pool: the well-formed entries, and the malformed ones set aside. */
export type PoolsProofPerPool = PoolsDataPerPool<PoolProofInfo>;

const INSTRUMENT = objectField({ id: 'nonEmptyString', admin: 'nonEmptyString' } as const);

const PROOF_ENTRY = {
  pool_id: 'nonEmptyString',
  pool_cid: 'nonEmptyString',
  token_a_instrument: INSTRUMENT,
  token_b_instrument: INSTRUMENT,
  reserve_contract: objectField({
    contract_id: 'hex',
    update_id: 'nonEmptyString',
    template: objectField({
      package_id: (r: ShapeReader, node: ShapeNode, key: string) => r.hex(node, key, 64),
      package_name: 'nonEmptyString',
      module_name: 'nonEmptyString',
      entity_name: 'nonEmptyString',
    } as const),
    ledger_created_at: 'timestamp',
    created_event_blob: 'base64',
    reserve_a: 'decimal10',
    reserve_b: 'decimal10',
    total_lp_supply: 'decimal10',
  } as const),
} as const;

const readProofEntry = (r: ShapeReader, v: unknown, path: string): PoolProofInfo =>
  r.fields(v, path, PROOF_ENTRY);

/** Validates a /pools/proof body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parsePoolsProofResponse(json: unknown, options: ParseOptions = {}): PoolsProofResponse {
  return parsePoolsData(json, options, readProofEntry);
}

/**
 * Validates a /pools/proof body pool by pool (the auditor's reading, `parsePoolsDataPerPool`): one
 * malformed entry is that pool's finding instead of hiding every other proof.
 */
export function parsePoolsProofPerPool(json: unknown, options: ParseOptions = {}): PoolsProofPerPool {
  return parsePoolsDataPerPool(json, options, readProofEntry);
}
