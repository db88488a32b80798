/**
 * The reference server's reserve template (docs/protocol/api-decisions.md §3): package `amm-pools`, module
 * `Amm.Pool`, entity `PoolReserve`, signatory `operator`, no observers. This file holds its
 * identity, its Daml types (for V12 TypedNormalForm hashing, docs/protocol/contract-id.md §6.4) and the
 * construction of its create argument as an untyped LF value (docs/protocol/blob-format.md §3.2, §4).
 *
 * Trailing None (`previous` of a genesis contract): for `v11`/`v12` the argument is normalized as
 * Canton 3.3+/3.4 writes it (the trailing None field is dropped, docs/protocol/blob-format.md §4 rule 3; V12
 * hashing forbids it, docs/protocol/contract-id.md §6.4). For `v10` it is kept, as the real Canton 3.0–3.2
 * V10 blobs carry their trailing Nones (docs/protocol/contract-id.md §6.1).
 */
import { formatHex } from '../core/codec/bytes.js';
import type { TemplateId } from '../core/codec/contract.js';
import type { Value } from '../core/codec/value.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import type {
  DamlType,
  DataTypeDef,
  FieldDef,
  PackageTypes,
  QualifiedName,
  TypeConRef,
} from '../core/types/daml-type.js';

/** What the package id stands for: SHA-256 of this string, in hex (not a real DALF hash). */
export const RESERVE_PACKAGE_ID_PREIMAGE =
  'reserve-audit/reference-template/amm-pools/0.1.0/Amm.Pool:PoolReserve';
/** SHA-256(RESERVE_PACKAGE_ID_PREIMAGE) — checked by a test. */
export const RESERVE_PACKAGE_ID = 'afbaaf1b760d834a5499ad83b264bec532bacd097388f5526b8e6fd790aaa443';
export const RESERVE_PACKAGE_NAME = 'amm-pools';
const RESERVE_PACKAGE_VERSION = '0.1.0';
export const RESERVE_MODULE_NAME = 'Amm.Pool';
export const RESERVE_ENTITY_NAME = 'PoolReserve';

export const RESERVE_TEMPLATE_ID: TemplateId = {
  packageId: RESERVE_PACKAGE_ID,
  module: ['Amm', 'Pool'],
  entity: ['PoolReserve'],
};

const INSTRUMENT_ID_REF: TypeConRef = {
  packageId: RESERVE_PACKAGE_ID,
  module: ['Amm', 'Types'],
  entity: ['InstrumentId'],
};
const instrumentIdType: DamlType = { kind: 'con', ref: INSTRUMENT_ID_REF, args: [] };
const numeric10: DamlType = { kind: 'numeric', scale: 10 };

/** A record type without type parameters, named as `ref` names it. */
const recordDef = ({ module, entity }: QualifiedName, fields: readonly FieldDef[]): DataTypeDef => ({
  kind: 'record',
  name: { module, entity },
  params: [],
  fields,
});

const INSTRUMENT_ID_DEF = recordDef(INSTRUMENT_ID_REF, [
  { name: 'admin', type: { kind: 'party' } },
  { name: 'id', type: { kind: 'text' } },
]);

const POOL_RESERVE_DEF = recordDef(RESERVE_TEMPLATE_ID, [
  { name: 'operator', type: { kind: 'party' } },
  { name: 'poolId', type: { kind: 'text' } },
  { name: 'tokenA', type: instrumentIdType },
  { name: 'tokenB', type: instrumentIdType },
  { name: 'reserveA', type: numeric10 },
  { name: 'reserveB', type: numeric10 },
  { name: 'totalLpSupply', type: numeric10 },
  { name: 'feeRate', type: numeric10 },
  { name: 'sequence', type: { kind: 'int64' } },
  { name: 'previous', type: { kind: 'optional', type: { kind: 'contractId' } } },
]);

/** The Daml types of the reserve package (the same content as fixtures/types/amm-pools.json). */
export const RESERVE_PACKAGE_TYPES: PackageTypes = {
  packageId: RESERVE_PACKAGE_ID,
  name: RESERVE_PACKAGE_NAME,
  version: RESERVE_PACKAGE_VERSION,
  dataTypes: new Map<string, DataTypeDef>([
    ['Amm.Types:InstrumentId', INSTRUMENT_ID_DEF],
    ['Amm.Pool:PoolReserve', POOL_RESERVE_DEF],
  ]),
  templates: new Set(['Amm.Pool:PoolReserve']),
};

/** The content of one reserve contract (amounts already rendered with exactly 10 decimals). */
export interface ReserveFields {
  readonly operator: string;
  readonly poolId: string;
  readonly tokenA: { readonly admin: string; readonly id: string };
  readonly tokenB: { readonly admin: string; readonly id: string };
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly feeRate: string;
  readonly sequence: bigint;
  /** raw bytes of the previous reserve contract's ID, or null for the pool's first contract */
  readonly previous: Uint8Array | null;
}

/**
 * The create argument of `PoolReserve` as an untyped LF record. For `v10` a None `previous` is
 * kept; for `v11`/`v12` it is dropped (normal form).
 */
export function encodeReserveCreateArg(f: ReserveFields, version: ContractIdVersion): Value {
  const instrument = (t: { admin: string; id: string }): Value => ({
    kind: 'record',
    fields: [
      { kind: 'party', value: t.admin },
      { kind: 'text', value: t.id },
    ],
  });
  const fields: Value[] = [
    { kind: 'party', value: f.operator },
    { kind: 'text', value: f.poolId },
    instrument(f.tokenA),
    instrument(f.tokenB),
    { kind: 'numeric', value: f.reserveA },
    { kind: 'numeric', value: f.reserveB },
    { kind: 'numeric', value: f.totalLpSupply },
    { kind: 'numeric', value: f.feeRate },
    { kind: 'int64', value: f.sequence },
  ];
  if (f.previous !== null) {
    fields.push({ kind: 'optional', value: { kind: 'contractId', value: f.previous } });
  } else if (version === 'v10') {
    fields.push({ kind: 'optional', value: null });
  }
  return { kind: 'record', fields };
}

/**
 * Reads a `PoolReserve` create argument back (a decoded blob), or null when the value does not
 * have the template's shape. Accepts the argument with or without the trailing None.
 */
export function decodeReserveCreateArg(v: Value): ReserveFields | null {
  if (v.kind !== 'record' || v.fields.length < 9 || v.fields.length > 10) return null;
  const [op, pid, ta, tb, ra, rb, lp, fee, seq, prev] = v.fields;
  const instrument = (x: Value | undefined): { admin: string; id: string } | null => {
    if (x?.kind !== 'record' || x.fields.length !== 2) return null;
    const [a, i] = x.fields;
    return a?.kind === 'party' && i?.kind === 'text' ? { admin: a.value, id: i.value } : null;
  };
  const tokenA = instrument(ta);
  const tokenB = instrument(tb);
  if (
    op?.kind !== 'party' ||
    pid?.kind !== 'text' ||
    tokenA === null ||
    tokenB === null ||
    ra?.kind !== 'numeric' ||
    rb?.kind !== 'numeric' ||
    lp?.kind !== 'numeric' ||
    fee?.kind !== 'numeric' ||
    seq?.kind !== 'int64'
  ) {
    return null;
  }
  let previous: Uint8Array | null = null;
  if (prev !== undefined) {
    if (prev.kind !== 'optional') return null;
    if (prev.value !== null) {
      if (prev.value.kind !== 'contractId') return null;
      previous = prev.value.value;
    }
  }
  return {
    operator: op.value,
    poolId: pid.value,
    tokenA,
    tokenB,
    reserveA: ra.value,
    reserveB: rb.value,
    totalLpSupply: lp.value,
    feeRate: fee.value,
    sequence: seq.value,
    previous,
  };
}

/**
 * The create argument in the Daml-LF JSON encoding the JSON Ledger API serves (`createArgument`):
 * a record as an object of its fields by name, Numeric and Int64 as strings, Optional as null or
 * the value, a contract ID as its hex string.
 */
export function formatReserveCreateArgJson(f: ReserveFields): Record<string, unknown> {
  return {
    operator: f.operator,
    poolId: f.poolId,
    tokenA: { admin: f.tokenA.admin, id: f.tokenA.id },
    tokenB: { admin: f.tokenB.admin, id: f.tokenB.id },
    reserveA: f.reserveA,
    reserveB: f.reserveB,
    totalLpSupply: f.totalLpSupply,
    feeRate: f.feeRate,
    sequence: f.sequence.toString(),
    previous: f.previous === null ? null : formatHex(f.previous),
  };
}
