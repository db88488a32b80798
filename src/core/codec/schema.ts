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

/** The field numbers of `message`, each given as [proto name, proto type]. */
function fieldsOf<T extends string>(
  message: string,
  spec: Readonly<Record<T, readonly [name: string, type: string]>>,
): Readonly<Record<T, number>> {
  const out = {} as Record<T, number>;
  for (const [key, [name, type]] of Object.entries(spec) as [T, readonly [string, string]][]) {
    out[key] = num(message, name, type);
  }
  return out;
}

const B = 'reserve_audit.blob';
const CUR = 'reserve_audit.blob.current';
const LEG = 'reserve_audit.blob.legacy';
const CANTON = 'reserve_audit.canton';

export const ENVELOPE = fieldsOf(`${B}.Versioned`, {
  version: ['version', 'string'],
  payload: ['payload', 'bytes'],
});

export const IDENTIFIER = fieldsOf(`${B}.Identifier`, {
  packageId: ['package_id', 'string'],
  moduleName: ['module_name', 'string'],
  name: ['name', 'string'],
});

/** The FatContractInstance fields both layouts share, by the same names and types. */
const FCI_COMMON = {
  contractId: ['contract_id', 'bytes'],
  packageName: ['package_name', 'string'],
  templateId: ['template_id', 'reserve_audit.blob.Identifier'],
  createArg: ['create_arg', 'bytes'],
  nonMaintainerSignatories: ['non_maintainer_signatories', 'string'],
  nonSignatoryStakeholders: ['non_signatory_stakeholders', 'string'],
  createdAt: ['created_at', 'sfixed64'],
  key: ['contract_key_with_maintainers', 'KeyWithMaintainers'],
} as const;

export const CURRENT_FCI = fieldsOf(`${CUR}.FatContractInstance`, {
  ...FCI_COMMON,
  authenticationData: ['authentication_data', 'bytes'],
  packageVersion: ['package_version', 'int32'],
});

export const CURRENT_KEY = fieldsOf(`${CUR}.KeyWithMaintainers`, {
  key: ['key', 'bytes'],
  maintainers: ['maintainers', 'string'],
  hash: ['hash', 'bytes'],
});

export const LEGACY_FCI = fieldsOf(`${LEG}.FatContractInstance`, {
  ...FCI_COMMON,
  cantonData: ['canton_data', 'bytes'],
});

export const LEGACY_KEY = fieldsOf(`${LEG}.KeyWithMaintainers`, {
  keyVersioned: ['key_versioned', 'VersionedValue'],
  keyUnversioned: ['key_unversioned', 'bytes'],
  maintainers: ['maintainers', 'string'],
});

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

/** The Value members both numberings name alike, by kind. */
const SHARED_MEMBERS = {
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
  record: K.record,
  variant: K.variant,
  enum: K.enum,
};

/**
 * The field numbers of the nested Value messages of package `pkg`, whose names differ between the
 * numberings: the record field message, and the text map and generic map messages.
 */
function nestedFields(pkg: string, recordField: string, textMap: string, genMap: string) {
  const v = `${pkg}.Value`;
  return {
    // the field message's own name: Field (nested in Record) or RecordField
    recordFields: num(`${v}.Record`, 'fields', recordField.slice(recordField.lastIndexOf('.') + 1)),
    fieldValue: num(`${v}.${recordField}`, 'value', 'Value'),
    variantCtor: num(`${v}.Variant`, 'constructor', 'string'),
    variantValue: num(`${v}.Variant`, 'value', 'Value'),
    enumValue: num(`${v}.Enum`, 'value', 'string'),
    listElements: num(`${v}.List`, 'elements', 'Value'),
    optionalValue: num(`${v}.Optional`, 'value', 'Value'),
    textMapEntries: num(`${v}.${textMap}`, 'entries', 'Entry'),
    textMapKey: num(`${v}.${textMap}.Entry`, 'key', 'string'),
    textMapValue: num(`${v}.${textMap}.Entry`, 'value', 'Value'),
    genMapEntries: num(`${v}.${genMap}`, 'entries', 'Entry'),
    genMapKey: num(`${v}.${genMap}.Entry`, 'key', 'Value'),
    genMapValue: num(`${v}.${genMap}.Entry`, 'value', 'Value'),
  };
}

export const CURRENT_VALUE: ValueLayout = {
  name: 'current',
  ...buildKinds(CUR, { ...SHARED_MEMBERS, map: K.genMap, text_map: K.textMap, text_map_3_2: K.textMap }),
  ...nestedFields(CUR, 'Record.Field', 'TextMap', 'Map'),
  // LF-2 has no type ids and no field labels
  recordId: 0,
  fieldLabel: 0,
  variantId: 0,
  enumId: 0,
};

export const LEGACY_VALUE: ValueLayout = {
  name: 'legacy',
  ...buildKinds(LEG, { ...SHARED_MEMBERS, map: K.textMap, gen_map: K.genMap }),
  ...nestedFields(LEG, 'RecordField', 'Map', 'GenMap'),
  // kept by the LF-1 schema, rejected by the decoder
  recordId: num(`${LEG}.Value.Record`, 'record_id', 'reserve_audit.blob.Identifier'),
  fieldLabel: num(`${LEG}.Value.RecordField`, 'label', 'string'),
  variantId: num(`${LEG}.Value.Variant`, 'variant_id', 'reserve_audit.blob.Identifier'),
  enumId: num(`${LEG}.Value.Enum`, 'enum_id', 'reserve_audit.blob.Identifier'),
};
