/**
 * Decodes a serialized Daml-LF `Value` (the `create_arg` / key bytes of a blob) into the untyped
 * value tree of value.ts. Both numberings: LF-2 (docs/protocol/blob-format.md §3.2,
 * docs/protocol/contract-id.md §4) and LF-1 legacy (§3.3). Field numbers come from the generated descriptor
 * (schema.ts).
 *
 * Rules: exactly one oneof member per Value; records positional (legacy labels / type ids are
 * rejected); TextMap entries sorted by key (code point order) with duplicates rejected, a missing
 * key meaning ""; GenMap entries kept in blob order; numerics, parties, names, contract ids, dates
 * and timestamps validated; nesting bounded by `maxDepth` (top-level Value = depth 1).
 */

import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { copyBytes } from './byte-pool.js';
import { parseHex } from './bytes.js';
import type { UnknownFieldReport } from './contract.js';
import { guardDecode } from './guard.js';
import { DEFAULT_MAX_DEPTH, type DecodeOptions, resolveDecodeOptions } from './limits.js';
import { CURRENT_VALUE, K, LEGACY_CONTRACT_ID_STRUCT, LEGACY_VALUE, type ValueLayout } from './schema.js';
import { compareCodePoints } from './utf8.js';
import {
  checkContractIdBytes,
  checkNumeric,
  isDamlName,
  isPartyIdCached,
  MAX_DATE,
  MAX_TIMESTAMP,
  MIN_DATE,
  MIN_TIMESTAMP,
} from './validate.js';
import type { Value } from './value.js';
import { WIRE_LEN, WireReader } from './wire-reader.js';

const NONE: Value = Object.freeze({ kind: 'optional', value: null }) as Value;
const UNIT: Value = Object.freeze({ kind: 'unit' }) as Value;

/** Decoding state shared by one run. */
export interface ValueContext {
  readonly r: WireReader;
  readonly layout: ValueLayout;
  readonly maxDepth: number;
}

/** Reads one `Value` message occupying `[r.pos, end)`. */
export function readValue(ctx: ValueContext, end: number, depth: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  if (depth > ctx.maxDepth) {
    r.fail('BLOB_TOO_DEEP', `Value expected nesting depth ≤ ${ctx.maxDepth}, got deeper`);
  }
  let result: Value | undefined;
  for (let tag = r.nextTag(end); tag !== 0; tag = r.nextTag(end)) {
    const field = tag >>> 3;
    const kind = field < layout.kindByField.length ? layout.kindByField[field]! : 0;
    if (kind === 0) {
      r.unknownField(tag, end, 'Value');
      continue;
    }
    const at = r.tagAt;
    if (result !== undefined) {
      r.fail('BLOB_INVALID_ONEOF', `Value expected exactly one member of oneof sum, got several`, at);
    }
    if ((tag & 7) !== layout.wireByField[field])
      r.expectWire(tag, layout.wireByField[field]!, MEMBER_LABEL[kind]!);
    result = readMember(ctx, kind, end, depth, at);
  }
  if (result === undefined) {
    r.fail('BLOB_INVALID_ONEOF', `Value expected exactly one member of oneof sum, got none`);
  }
  return result;
}

/** `Value.<kind>` labels for error messages, indexed by kind. */
const MEMBER_LABEL: readonly string[] = (() => {
  const out: string[] = [];
  for (const [name, k] of Object.entries(K)) out[k] = `Value.${name}`;
  return out;
})();

function readMember(ctx: ValueContext, kind: number, end: number, depth: number, at: number): Value {
  const r: WireReader = ctx.r;
  switch (kind) {
    case 1: {
      // K.unit: an empty message
      const stop = r.readLength(end, 'Value.unit');
      for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop))
        r.unknownField(tag, stop, 'Value.unit');
      return UNIT;
    }
    case 2: // K.bool
      return { kind: 'bool', value: r.readBool(end, 'Value.bool') };
    case 3: // K.int64
      return { kind: 'int64', value: r.readSint64(end, 'Value.int64') };
    case 4: {
      // K.date
      const v = r.readInt32(end, 'Value.date');
      if (v < MIN_DATE || v > MAX_DATE) {
        r.fail('BLOB_INVALID_FIELD', `Value.date expected days in ${MIN_DATE}..${MAX_DATE}, got ${v}`, at);
      }
      return { kind: 'date', value: v };
    }
    case 5: {
      // K.timestamp
      const v = r.readSfixed64(end, 'Value.timestamp');
      if (v < MIN_TIMESTAMP || v > MAX_TIMESTAMP) {
        r.fail('BLOB_INVALID_FIELD', `Value.timestamp expected µs within years 1..9999, got ${v}`, at);
      }
      return { kind: 'timestamp', value: v };
    }
    case 6: {
      // K.numeric
      const s = r.readString(end, 'Value.numeric');
      const bad = checkNumeric(s);
      if (bad !== null)
        r.fail('BLOB_INVALID_NUMERIC', `Value.numeric expected ${bad}, got ${formatGot(s)}`, at);
      return { kind: 'numeric', value: s };
    }
    case 7: {
      // K.party
      const s = r.readString(end, 'Value.party');
      if (!isPartyIdCached(s, r.scratch?.parties ?? null))
        r.fail('BLOB_INVALID_PARTY', `Value.party expected a party id, got ${formatGot(s)}`, at);
      return { kind: 'party', value: s };
    }
    case 8: // K.text
      return { kind: 'text', value: r.readString(end, 'Value.text') };
    case 9: // K.contractId
      return { kind: 'contractId', value: readContractId(ctx, end, at) };
    case 10: {
      // K.optional
      const inner = readValues(ctx, end, depth, ctx.layout.optionalValue, OPTIONAL, null);
      return inner === undefined ? NONE : { kind: 'optional', value: inner };
    }
    case 11: {
      // K.list
      const elements: Value[] = [];
      readValues(ctx, end, depth, ctx.layout.listElements, LIST, elements);
      return { kind: 'list', elements };
    }
    case 13: // K.record
      return readRecord(ctx, end, depth);
    case 14: // K.variant
      return readConstructor(ctx, end, depth, at, messagesFor(ctx.layout).variant);
    case 15: // K.enum
      return readConstructor(ctx, end, depth, at, messagesFor(ctx.layout).enum);
    case 16: // K.textMap: sorted by key, unique keys; a missing key means ""
      return {
        kind: 'textMap',
        entries: sortTextMap(r, readMapEntries(ctx, end, depth, messagesFor(ctx.layout).textMap), at),
      };
    case 12: // K.genMap: kept in blob order
      return { kind: 'genMap', entries: readMapEntries(ctx, end, depth, messagesFor(ctx.layout).genMap) };
    default:
      return r.fail('BLOB_MALFORMED', `Value expected a known kind, got ${kind}`, at);
  }
}

/** A length-delimited nested Value at depth + 1. */
function readNested(ctx: ValueContext, end: number, depth: number): Value {
  const stop = ctx.r.readLength(end, 'Value');
  const v = readValue(ctx, stop, depth + 1);
  return v;
}

/** The labels of a member holding nested Values (Optional, List) in errors. */
interface ValuesMember {
  readonly member: string;
  readonly message: string;
  readonly field: string;
}

const valuesMember = (member: string, message: string, field: string): ValuesMember => ({
  member,
  message,
  field: `${message}.${field}`,
});
const OPTIONAL = valuesMember('Value.optional', 'Value.Optional', 'value');
const LIST = valuesMember('Value.list', 'Value.List', 'elements');

/**
 * Reads the nested Values of field number `field` of an Optional or List member ending at `end`: a
 * list's into `list`; with `list` null, an optional's one Value is returned (undefined: none).
 */
function readValues(
  ctx: ValueContext,
  end: number,
  depth: number,
  field: number,
  m: ValuesMember,
  list: Value[] | null,
): Value | undefined {
  const r: WireReader = ctx.r;
  const stop = r.readLength(end, m.member);
  let one: Value | undefined;
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    if (tag >>> 3 !== field) r.unknownField(tag, stop, m.message);
    else {
      r.expectLenOnce(tag, one, m.field);
      const v = readNested(ctx, stop, depth);
      if (list === null) one = v;
      else list.push(v);
    }
  }
  return one;
}

function readContractId(ctx: ValueContext, end: number, at: number): Uint8Array {
  const r: WireReader = ctx.r;
  const stop = r.readLength(end, 'Value.contract_id');
  let bytes: Uint8Array;
  if (
    ctx.layout.name === 'legacy' &&
    stop > r.pos &&
    r.buf[r.pos] === ((LEGACY_CONTRACT_ID_STRUCT << 3) | WIRE_LEN)
  ) {
    // Daml 2.x: ContractId{ string contract_id = 1 } holding the hex text (first content byte 0x0a);
    // early-3.0 snapshots hold the raw id bytes, which start with 0x00 / 0x01
    let hex: string | null = null;
    for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
      if (tag >>> 3 !== LEGACY_CONTRACT_ID_STRUCT) r.unknownField(tag, stop, 'ContractId');
      else {
        r.expectWire(tag, WIRE_LEN, 'ContractId.contract_id');
        hex = r.readString(stop, 'ContractId.contract_id');
      }
    }
    try {
      bytes = parseHex(hex ?? '', 'Value.contract_id');
    } catch (e) {
      return r.fail('BLOB_INVALID_FIELD', (e as CodecError).shortMessage, at);
    }
  } else {
    bytes = r.buf.subarray(r.pos, stop);
    r.pos = stop;
  }
  const bad = checkContractIdBytes(bytes);
  if (bad !== null)
    r.fail('BLOB_INVALID_FIELD', `Value.contract_id expected ${bad}, got ${bytes.length} bytes`, at);
  return bytes;
}

function readRecord(ctx: ValueContext, end: number, depth: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  const stop = r.readLength(end, 'Value.record');
  const fields: Value[] = [];
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    const f = tag >>> 3;
    if (f === layout.recordFields) {
      const at = r.tagAt;
      r.expectWire(tag, WIRE_LEN, 'Value.Record.fields');
      const fStop = r.readLength(stop, 'Value.Record.Field');
      let v: Value | undefined;
      for (let t2 = r.nextTag(fStop); t2 !== 0; t2 = r.nextTag(fStop)) {
        const f2 = t2 >>> 3;
        if (f2 === layout.fieldValue) {
          r.expectLenOnce(t2, v, 'Value.Record.Field.value');
          v = readNested(ctx, fStop, depth);
        } else if (f2 === layout.fieldLabel && layout.fieldLabel !== 0)
          r.forbidden('Value.Record.Field.label');
        else r.unknownField(t2, fStop, 'Value.Record.Field');
      }
      if (v === undefined) r.fail('BLOB_INVALID_ONEOF', 'Value.Record.Field expected a value, got none', at);
      fields.push(v);
    } else if (f === layout.recordId && layout.recordId !== 0) r.forbidden('Value.Record.record_id');
    else r.unknownField(tag, stop, 'Value.Record');
  }
  return { kind: 'record', fields };
}

/**
 * A message of at most one key and one Value, each by its field number: a map entry, or a variant or
 * enum (constructor and value; an enum has no value field: 0). A field the schema keeps but forbids
 * (a type id; 0: none) is rejected; a missing key takes `missingKey` (undefined: rejected).
 */
interface PairMessage<K> {
  readonly message: string;
  readonly key: string;
  readonly value: string;
  readonly forbidden: string;
  readonly keyField: number;
  readonly valueField: number;
  readonly forbiddenField: number;
  readonly readKey: (ctx: ValueContext, end: number, depth: number, what: string) => K;
  readonly missingKey: K | undefined;
}

function readPair<K>(
  ctx: ValueContext,
  stop: number,
  depth: number,
  at: number,
  m: PairMessage<K>,
): [K, Value | undefined] {
  const r: WireReader = ctx.r;
  let key: K | undefined;
  let v: Value | undefined;
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    const f = tag >>> 3;
    if (f === m.keyField) {
      r.expectLenOnce(tag, key, m.key);
      key = m.readKey(ctx, stop, depth, m.key);
    } else if (f === m.valueField && m.valueField !== 0) {
      r.expectLenOnce(tag, v, m.value);
      v = readNested(ctx, stop, depth);
    } else if (f === m.forbiddenField && m.forbiddenField !== 0) r.forbidden(m.forbidden);
    else r.unknownField(tag, stop, m.message);
  }
  key ??= m.missingKey;
  if (key === undefined) r.fail('BLOB_INVALID_ONEOF', `${m.message} expected a key, got none`, at);
  return [key, v];
}

/** A key or constructor that is a string. */
const readText = (ctx: ValueContext, end: number, _depth: number, what: string): string =>
  ctx.r.readString(end, what);

/** How a map member reads: its labels, its entries' field number and the entry message. */
interface MapMember<K> {
  readonly member: string;
  readonly message: string;
  readonly entriesField: number;
  readonly entry: PairMessage<K>;
}

/** A pair message from its name, its fields' names and numbers (key, value, forbidden; 0: none). */
function pairMessage<K>(
  message: string,
  [key, value, forbidden]: readonly [string, string, string],
  [keyField, valueField, forbiddenField]: readonly [number, number, number],
  readKey: PairMessage<K>['readKey'],
  missingKey: K | undefined,
): PairMessage<K> {
  const label = (name: string): string => `${message}.${name}`;
  const labels = { key: label(key), value: label(value), forbidden: label(forbidden) };
  return { message, ...labels, keyField, valueField, forbiddenField, readKey, missingKey };
}

/** The variant, enum and map messages of one layout, with its field numbers. */
interface LayoutMessages {
  readonly variant: PairMessage<string>;
  readonly enum: PairMessage<string>;
  readonly textMap: MapMember<string>;
  readonly genMap: MapMember<Value>;
}

function messagesOf(l: ValueLayout): LayoutMessages {
  const names = ['key', 'value', ''] as const;
  return {
    variant: pairMessage(
      'Value.Variant',
      ['constructor', 'value', 'variant_id'],
      [l.variantCtor, l.variantValue, l.variantId],
      readText,
      '',
    ),
    enum: pairMessage('Value.Enum', ['value', '', 'enum_id'], [l.enumValue, 0, l.enumId], readText, ''),
    textMap: {
      member: 'Value.text_map',
      message: 'Value.TextMap',
      entriesField: l.textMapEntries,
      entry: pairMessage('Value.TextMap.Entry', names, [l.textMapKey, l.textMapValue, 0], readText, ''),
    },
    genMap: {
      member: 'Value.map',
      message: 'Value.Map',
      entriesField: l.genMapEntries,
      entry: pairMessage('Value.Map.Entry', names, [l.genMapKey, l.genMapValue, 0], readNested, undefined),
    },
  };
}

const CURRENT_MESSAGES = messagesOf(CURRENT_VALUE);
const LEGACY_MESSAGES = messagesOf(LEGACY_VALUE);
const messagesFor = (l: ValueLayout): LayoutMessages =>
  l.name === 'legacy' ? LEGACY_MESSAGES : CURRENT_MESSAGES;

/** A Variant or Enum member: its constructor must be a Daml name; a variant needs its value. */
function readConstructor(
  ctx: ValueContext,
  end: number,
  depth: number,
  at: number,
  m: PairMessage<string>,
): Value {
  const r: WireReader = ctx.r;
  const isEnum = m.valueField === 0;
  const stop = r.readLength(end, isEnum ? 'Value.enum' : 'Value.variant');
  const [name, v] = readPair(ctx, stop, depth, at, m);
  if (!isDamlName(name))
    r.fail('BLOB_INVALID_FIELD', `${m.key} expected a Daml name, got ${formatGot(name)}`, at);
  if (isEnum) return { kind: 'enum', constructor: name };
  if (v === undefined) r.fail('BLOB_INVALID_ONEOF', `${m.message} expected a value, got none`, at);
  return { kind: 'variant', constructor: name, value: v };
}

/** The entries of a map member ending at `end`, in blob order: each one value and at most one key. */
function readMapEntries<K>(ctx: ValueContext, end: number, depth: number, m: MapMember<K>): [K, Value][] {
  const r: WireReader = ctx.r;
  const stop = r.readLength(end, m.member);
  const entries: [K, Value][] = [];
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    if (tag >>> 3 !== m.entriesField) {
      r.unknownField(tag, stop, m.message);
      continue;
    }
    const at = r.tagAt;
    r.expectWire(tag, WIRE_LEN, `${m.message}.entries`);
    const [key, v] = readPair(ctx, r.readLength(stop, m.entry.message), depth, at, m.entry);
    if (v === undefined) r.fail('BLOB_INVALID_ONEOF', `${m.entry.message} expected a value, got none`, at);
    entries.push([key, v]);
  }
  return entries;
}

/** A TextMap's entries in key order (code points); a key standing twice is rejected. */
function sortTextMap(r: WireReader, entries: [string, Value][], at: number): [string, Value][] {
  for (let i = 1; i < entries.length; i++) {
    if (compareCodePoints(entries[i - 1]![0], entries[i]![0]) >= 0) {
      entries.sort((a, b) => compareCodePoints(a[0], b[0]));
      break;
    }
  }
  for (let i = 1; i < entries.length; i++) {
    if (entries[i - 1]![0] === entries[i]![0]) {
      r.fail(
        'BLOB_DUPLICATE_MAP_KEY',
        `Value.TextMap expected unique keys, got ${formatGot(entries[i]![0])} twice`,
        at,
      );
    }
  }
  return entries;
}

export interface DecodeValueOptions extends DecodeOptions {
  /** which Value numbering the bytes use (default 'current' = LF-2) */
  readonly layout?: 'current' | 'legacy';
}

/**
 * Decodes the bytes of one bare `Value` message (e.g. a blob's `create_arg`). The whole input must
 * be consumed. Throws `CodecError` on any malformed input; with `unknownFields: 'report'` the
 * skipped fields are pushed to `report` when given.
 */
export function decodeValue(
  input: Uint8Array,
  options: DecodeValueOptions = {},
  report?: UnknownFieldReport[],
): Value {
  return guardDecode(() => {
    const opts = resolveDecodeOptions(options);
    if (!(input instanceof Uint8Array)) {
      throw new CodecError('BLOB_MALFORMED', `"value" expected a Uint8Array, got ${formatGot(typeof input)}`);
    }
    if (input.length > opts.maxBytes) {
      throw new CodecError(
        'BLOB_TOO_LARGE',
        `"value" expected at most ${opts.maxBytes} bytes, got ${input.length}`,
      );
    }
    const unknown = opts.unknownFields === 'report' ? (report ?? []) : null;
    // one private copy: the decoded bytes fields are views into it, safe from later caller writes
    const r = new WireReader(
      opts.copyInput ? copyBytes(input, opts.scratch?.pool ?? null) : input,
      unknown,
      opts.maxBytes,
      opts.scratch,
    );
    const layout = options.layout === 'legacy' ? LEGACY_VALUE : CURRENT_VALUE;
    return readValue({ r, layout, maxDepth: opts.maxDepth ?? DEFAULT_MAX_DEPTH }, input.length, 1);
  });
}
