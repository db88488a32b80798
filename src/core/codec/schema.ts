/**
 * Field tables for the fast wire decoder/encoder, built once from the protobufjs JSON descriptor that
 * scripts/gen-proto.mjs generates from proto/*.proto (docs/protocol/blob-format.md §2–§3, §6). Every number
 * the codec uses comes from here, and each lookup asserts the field's proto type, so the hand-written
 * walker cannot drift from the .proto files (a mismatch fails at module load and in the tests).
 */
import { protoDescriptor } from './generated/proto-descriptor.js';
import { WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT } from './wire-reader.js';

interface JsonField {
  readonly id: number;
  readonly type: string;
  readonly rule?: string;
}
interface JsonNode {
  readonly nested?: Record<string, JsonNode>;
  readonly fields?: Record<string, JsonField>;
  readonly oneofs?: Record<string, { readonly oneof: readonly string[] }>;
  readonly values?: Record<string, number>;
}

function lookup(path: string): JsonNode {
  let node = protoDescriptor as JsonNode;
  for (const part of path.split('.')) {
    const next = node.nested?.[part];
    if (next === undefined) throw new Error(`proto descriptor: ${path} not found (run npm run gen:proto)`);
    node = next;
  }
  return node;
}

function fieldOf(message: string, name: string, type: string): JsonField {
  const f = lookup(message).fields?.[name];
  if (f === undefined) throw new Error(`proto descriptor: ${message}.${name} not found`);
  if (f.type !== type)
    throw new Error(`proto descriptor: ${message}.${name} is ${f.type}, the codec expects ${type}`);
  return f;
}

/** The field number of `message.name`, asserting its proto type. */
function num(message: string, name: string, type: string): number {
  return fieldOf(message, name, type).id;
}

/** The protobuf wire type of a descriptor type name. */
function wireTypeOf(type: string): number {
  switch (type) {
    case 'sfixed64':
    case 'fixed64':
    case 'double':
      return WIRE_I64;
    case 'sfixed32':
    case 'fixed32':
    case 'float':
      return WIRE_I32;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
    case 'sint32':
    case 'sint64':
    case 'bool':
      return WIRE_VARINT;
    default:
      return type.endsWith('HmacAlgorithm') ? WIRE_VARINT : WIRE_LEN;
  }
}

const B = 'reserve_audit.blob';
const CUR = 'reserve_audit.blob.current';
const LEG = 'reserve_audit.blob.legacy';
const CANTON = 'reserve_audit.canton';

export const ENVELOPE = {
  version: num(`${B}.Versioned`, 'version', 'string'),
  payload: num(`${B}.Versioned`, 'payload', 'bytes'),
} as const;

export const IDENTIFIER = {
  packageId: num(`${B}.Identifier`, 'package_id', 'string'),
  moduleName: num(`${B}.Identifier`, 'module_name', 'string'),
  name: num(`${B}.Identifier`, 'name', 'string'),
} as const;

export const CURRENT_FCI = {
  contractId: num(`${CUR}.FatContractInstance`, 'contract_id', 'bytes'),
  packageName: num(`${CUR}.FatContractInstance`, 'package_name', 'string'),
  templateId: num(`${CUR}.FatContractInstance`, 'template_id', 'reserve_audit.blob.Identifier'),
  createArg: num(`${CUR}.FatContractInstance`, 'create_arg', 'bytes'),
  nonMaintainerSignatories: num(`${CUR}.FatContractInstance`, 'non_maintainer_signatories', 'string'),
  nonSignatoryStakeholders: num(`${CUR}.FatContractInstance`, 'non_signatory_stakeholders', 'string'),
  createdAt: num(`${CUR}.FatContractInstance`, 'created_at', 'sfixed64'),
  authenticationData: num(`${CUR}.FatContractInstance`, 'authentication_data', 'bytes'),
  packageVersion: num(`${CUR}.FatContractInstance`, 'package_version', 'int32'),
  key: num(`${CUR}.FatContractInstance`, 'contract_key_with_maintainers', 'KeyWithMaintainers'),
} as const;

export const CURRENT_KEY = {
  key: num(`${CUR}.KeyWithMaintainers`, 'key', 'bytes'),
  maintainers: num(`${CUR}.KeyWithMaintainers`, 'maintainers', 'string'),
  hash: num(`${CUR}.KeyWithMaintainers`, 'hash', 'bytes'),
} as const;

export const LEGACY_FCI = {
  contractId: num(`${LEG}.FatContractInstance`, 'contract_id', 'bytes'),
  templateId: num(`${LEG}.FatContractInstance`, 'template_id', 'reserve_audit.blob.Identifier'),
  createArg: num(`${LEG}.FatContractInstance`, 'create_arg', 'bytes'),
  key: num(`${LEG}.FatContractInstance`, 'contract_key_with_maintainers', 'KeyWithMaintainers'),
  nonMaintainerSignatories: num(`${LEG}.FatContractInstance`, 'non_maintainer_signatories', 'string'),
  nonSignatoryStakeholders: num(`${LEG}.FatContractInstance`, 'non_signatory_stakeholders', 'string'),
  createdAt: num(`${LEG}.FatContractInstance`, 'created_at', 'sfixed64'),
  cantonData: num(`${LEG}.FatContractInstance`, 'canton_data', 'bytes'),
  packageName: num(`${LEG}.FatContractInstance`, 'package_name', 'string'),
} as const;

export const LEGACY_KEY = {
  keyVersioned: num(`${LEG}.KeyWithMaintainers`, 'key_versioned', 'VersionedValue'),
  keyUnversioned: num(`${LEG}.KeyWithMaintainers`, 'key_unversioned', 'bytes'),
  maintainers: num(`${LEG}.KeyWithMaintainers`, 'maintainers', 'string'),
} as const;

export const LEGACY_CONTRACT_ID_STRUCT = num(`${LEG}.ContractId`, 'contract_id', 'string');

export const AUTH = {
  wrapperData: num(`${CANTON}.UntypedVersionedMessage`, 'data', 'bytes'),
  wrapperVersion: num(`${CANTON}.UntypedVersionedMessage`, 'version', 'int32'),
  contractSalt: num(`${CANTON}.ContractAuthenticationData`, 'contract_salt', 'Salt'),
  saltHmac: num(`${CANTON}.Salt`, 'hmac', 'HmacAlgorithm'),
  saltBytes: num(`${CANTON}.Salt`, 'salt', 'bytes'),
  hmacSha256: lookup(`${CANTON}.HmacAlgorithm`).values?.HMAC_ALGORITHM_HMAC_SHA256 ?? -1,
} as const;

/** Value kinds as small integers (index into the dispatch table). */
export const K = {
  unit: 1,
  bool: 2,
  int64: 3,
  date: 4,
  timestamp: 5,
  numeric: 6,
  party: 7,
  text: 8,
  contractId: 9,
  optional: 10,
  list: 11,
  genMap: 12,
  record: 13,
  variant: 14,
  enum: 15,
  textMap: 16,
} as const;

/** Numbers of the Value message family of one layout. 0 = the field does not exist in that layout. */
export interface ValueLayout {
  readonly name: 'current' | 'legacy';
  /** oneof field number → kind (0 = not a Value member) */
  readonly kindByField: Uint8Array;
  /** oneof field number → expected wire type */
  readonly wireByField: Uint8Array;
  /** kind → the field number the encoder writes */
  readonly fieldByKind: Uint16Array;
  readonly recordFields: number;
  readonly recordId: number;
  readonly fieldValue: number;
  readonly fieldLabel: number;
  readonly variantCtor: number;
  readonly variantValue: number;
  readonly variantId: number;
  readonly enumValue: number;
  readonly enumId: number;
  readonly listElements: number;
  readonly optionalValue: number;
  readonly textMapEntries: number;
  readonly textMapKey: number;
  readonly textMapValue: number;
  readonly genMapEntries: number;
  readonly genMapKey: number;
  readonly genMapValue: number;
}

function buildKinds(
  pkg: string,
  memberKinds: Record<string, number>,
): Pick<ValueLayout, 'kindByField' | 'wireByField' | 'fieldByKind'> {
  const value = lookup(`${pkg}.Value`);
  const members = value.oneofs?.sum?.oneof ?? [];
  let max = 0;
  for (const m of members) max = Math.max(max, value.fields?.[m]?.id ?? 0);
  const kindByField = new Uint8Array(max + 1);
  const wireByField = new Uint8Array(max + 1);
  const fieldByKind = new Uint16Array(17);
  for (const m of members) {
    const f = value.fields?.[m];
    const kind = memberKinds[m];
    if (f === undefined || kind === undefined)
      throw new Error(`proto descriptor: ${pkg}.Value.${m} has no kind`);
    kindByField[f.id] = kind;
    wireByField[f.id] = wireTypeOf(f.type);
    if (fieldByKind[kind] === 0) fieldByKind[kind] = f.id;
  }
  for (let k = 1; k <= 16; k++) {
    if (fieldByKind[k] === 0) throw new Error(`proto descriptor: ${pkg}.Value lacks kind ${k}`);
  }
  return { kindByField, wireByField, fieldByKind };
}

export const CURRENT_VALUE: ValueLayout = {
  name: 'current',
  ...buildKinds(CUR, {
    unit: K.unit,
    bool: K.bool,
    int64: K.int64,
    date: K.date,
    timestamp: K.timestamp,
    numeric: K.numeric,
    party: K.party,
    text: K.text,
    contract_id: K.contractId,
    optional: K.optional,
    list: K.list,
    map: K.genMap,
    record: K.record,
    variant: K.variant,
    enum: K.enum,
    text_map: K.textMap,
    text_map_3_2: K.textMap,
  }),
  recordFields: num(`${CUR}.Value.Record`, 'fields', 'Field'),
  recordId: 0,
  fieldValue: num(`${CUR}.Value.Record.Field`, 'value', 'Value'),
  fieldLabel: 0,
  variantCtor: num(`${CUR}.Value.Variant`, 'constructor', 'string'),
  variantValue: num(`${CUR}.Value.Variant`, 'value', 'Value'),
  variantId: 0,
  enumValue: num(`${CUR}.Value.Enum`, 'value', 'string'),
  enumId: 0,
  listElements: num(`${CUR}.Value.List`, 'elements', 'Value'),
  optionalValue: num(`${CUR}.Value.Optional`, 'value', 'Value'),
  textMapEntries: num(`${CUR}.Value.TextMap`, 'entries', 'Entry'),
  textMapKey: num(`${CUR}.Value.TextMap.Entry`, 'key', 'string'),
  textMapValue: num(`${CUR}.Value.TextMap.Entry`, 'value', 'Value'),
  genMapEntries: num(`${CUR}.Value.Map`, 'entries', 'Entry'),
  genMapKey: num(`${CUR}.Value.Map.Entry`, 'key', 'Value'),
  genMapValue: num(`${CUR}.Value.Map.Entry`, 'value', 'Value'),
};

export const LEGACY_VALUE: ValueLayout = {
  name: 'legacy',
  ...buildKinds(LEG, {
    record: K.record,
    variant: K.variant,
    list: K.list,
    int64: K.int64,
    numeric: K.numeric,
    text: K.text,
    timestamp: K.timestamp,
    party: K.party,
    bool: K.bool,
    unit: K.unit,
    date: K.date,
    optional: K.optional,
    contract_id: K.contractId,
    map: K.textMap,
    enum: K.enum,
    gen_map: K.genMap,
  }),
  recordFields: num(`${LEG}.Value.Record`, 'fields', 'RecordField'),
  recordId: num(`${LEG}.Value.Record`, 'record_id', 'reserve_audit.blob.Identifier'),
  fieldValue: num(`${LEG}.Value.RecordField`, 'value', 'Value'),
  fieldLabel: num(`${LEG}.Value.RecordField`, 'label', 'string'),
  variantCtor: num(`${LEG}.Value.Variant`, 'constructor', 'string'),
  variantValue: num(`${LEG}.Value.Variant`, 'value', 'Value'),
  variantId: num(`${LEG}.Value.Variant`, 'variant_id', 'reserve_audit.blob.Identifier'),
  enumValue: num(`${LEG}.Value.Enum`, 'value', 'string'),
  enumId: num(`${LEG}.Value.Enum`, 'enum_id', 'reserve_audit.blob.Identifier'),
  listElements: num(`${LEG}.Value.List`, 'elements', 'Value'),
  optionalValue: num(`${LEG}.Value.Optional`, 'value', 'Value'),
  textMapEntries: num(`${LEG}.Value.Map`, 'entries', 'Entry'),
  textMapKey: num(`${LEG}.Value.Map.Entry`, 'key', 'string'),
  textMapValue: num(`${LEG}.Value.Map.Entry`, 'value', 'Value'),
  genMapEntries: num(`${LEG}.Value.GenMap`, 'entries', 'Entry'),
  genMapKey: num(`${LEG}.Value.GenMap.Entry`, 'key', 'Value'),
  genMapValue: num(`${LEG}.Value.GenMap.Entry`, 'value', 'Value'),
};
