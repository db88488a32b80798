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
import type { ParseOptions, ShapeNode, ShapeReader } from './shape.js';

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

const RC_KEYS = [
  'contract_id',
  'update_id',
  'template',
  'ledger_created_at',
  'created_event_blob',
  'reserve_a',
  'reserve_b',
  'total_lp_supply',
];

function readInstrument(r: ShapeReader, node: ShapeNode, key: string): ProofInstrument {
  const i = r.child(node, key, ['id', 'admin']);
  return { id: r.nonEmptyString(i, 'id'), admin: r.nonEmptyString(i, 'admin') };
}

function readProofEntry(r: ShapeReader, v: unknown, path: string): PoolProofInfo {
  const p = r.object(v, path, [
    'pool_id',
    'pool_cid',
    'token_a_instrument',
    'token_b_instrument',
    'reserve_contract',
  ]);
  const rc = r.child(p, 'reserve_contract', RC_KEYS);
  const t = r.child(rc, 'template', ['package_id', 'package_name', 'module_name', 'entity_name']);
  return {
    pool_id: r.nonEmptyString(p, 'pool_id'),
    pool_cid: r.nonEmptyString(p, 'pool_cid'),
    token_a_instrument: readInstrument(r, p, 'token_a_instrument'),
    token_b_instrument: readInstrument(r, p, 'token_b_instrument'),
    reserve_contract: {
      contract_id: r.hex(rc, 'contract_id'),
      update_id: r.nonEmptyString(rc, 'update_id'),
      template: {
        package_id: r.hex(t, 'package_id', 64),
        package_name: r.nonEmptyString(t, 'package_name'),
        module_name: r.nonEmptyString(t, 'module_name'),
        entity_name: r.nonEmptyString(t, 'entity_name'),
      },
      ledger_created_at: r.timestamp(rc, 'ledger_created_at'),
      created_event_blob: r.base64(rc, 'created_event_blob'),
      reserve_a: r.decimal10(rc, 'reserve_a'),
      reserve_b: r.decimal10(rc, 'reserve_b'),
      total_lp_supply: r.decimal10(rc, 'total_lp_supply'),
    },
  };
}

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
