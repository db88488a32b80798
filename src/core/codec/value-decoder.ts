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
  while (r.pos < end) {
    const tagOffset = r.pos;
    const tag = r.readTag(end);
    const field = tag >>> 3;
    const kind = field < layout.kindByField.length ? layout.kindByField[field]! : 0;
    if (kind === 0) {
      r.unknownField(tag, end, 'Value', tagOffset);
      continue;
    }
    if (result !== undefined) {
      r.fail('BLOB_INVALID_ONEOF', `Value expected exactly one member of oneof sum, got several`, tagOffset);
    }
    if ((tag & 7) !== layout.wireByField[field])
      r.expectWire(tag, layout.wireByField[field]!, MEMBER_LABEL[kind]!, tagOffset);
    result = readMember(ctx, kind, end, depth, tagOffset);
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
      // K.unit
      const stop = r.readLength(end, 'Value.unit');
      while (r.pos < stop) {
        const o = r.pos;
        r.unknownField(r.readTag(stop), stop, 'Value.unit', o);
      }
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
      const stop = r.readLength(end, 'Value.optional');
      let inner: Value | null = null;
      while (r.pos < stop) {
        const o = r.pos;
        const tag = r.readTag(stop);
        if (tag >>> 3 === ctx.layout.optionalValue) {
          r.expectWire(tag, WIRE_LEN, 'Value.Optional.value', o);
          if (inner !== null) r.fail('BLOB_DUPLICATE_FIELD', 'Value.Optional expected one value, got two', o);
          inner = readNested(ctx, stop, depth);
        } else r.unknownField(tag, stop, 'Value.Optional', o);
      }
      return inner === null ? NONE : { kind: 'optional', value: inner };
    }
    case 11: {
      // K.list
      const stop = r.readLength(end, 'Value.list');
      const elements: Value[] = [];
      while (r.pos < stop) {
        const o = r.pos;
        const tag = r.readTag(stop);
        if (tag >>> 3 === ctx.layout.listElements) {
          r.expectWire(tag, WIRE_LEN, 'Value.List.elements', o);
          elements.push(readNested(ctx, stop, depth));
        } else r.unknownField(tag, stop, 'Value.List', o);
      }
      return { kind: 'list', elements };
    }
    case 13: // K.record
      return readRecord(ctx, end, depth);
    case 14: // K.variant
      return readVariant(ctx, end, depth, at);
    case 15: // K.enum
      return readEnum(ctx, end, at);
    case 16: // K.textMap
      return readTextMap(ctx, end, depth, at);
    case 12: // K.genMap
      return readGenMap(ctx, end, depth);
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
    while (r.pos < stop) {
      const o = r.pos;
      const tag = r.readTag(stop);
      if (tag >>> 3 === LEGACY_CONTRACT_ID_STRUCT) {
        r.expectWire(tag, WIRE_LEN, 'ContractId.contract_id', o);
        hex = r.readString(stop, 'ContractId.contract_id');
      } else r.unknownField(tag, stop, 'ContractId', o);
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
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    const f = tag >>> 3;
    if (f === layout.recordFields) {
      r.expectWire(tag, WIRE_LEN, 'Value.Record.fields', o);
      const fStop = r.readLength(stop, 'Value.Record.Field');
      let v: Value | undefined;
      while (r.pos < fStop) {
        const o2 = r.pos;
        const t2 = r.readTag(fStop);
        const f2 = t2 >>> 3;
        if (f2 === layout.fieldValue) {
          r.expectWire(t2, WIRE_LEN, 'Value.Record.Field.value', o2);
          if (v !== undefined)
            r.fail('BLOB_DUPLICATE_FIELD', 'Value.Record.Field expected one value, got two', o2);
          v = readNested(ctx, fStop, depth);
        } else if (f2 === layout.fieldLabel && layout.fieldLabel !== 0) {
          r.fail(
            'BLOB_INVALID_FIELD',
            'Value.Record.Field.label expected absent (must not be used), got a label',
            o2,
          );
        } else r.unknownField(t2, fStop, 'Value.Record.Field', o2);
      }
      if (v === undefined) r.fail('BLOB_INVALID_ONEOF', 'Value.Record.Field expected a value, got none', o);
      fields.push(v);
    } else if (f === layout.recordId && layout.recordId !== 0) {
      r.fail('BLOB_INVALID_FIELD', 'Value.Record.record_id expected absent (must not be used), got one', o);
    } else r.unknownField(tag, stop, 'Value.Record', o);
  }
  return { kind: 'record', fields };
}

function readVariant(ctx: ValueContext, end: number, depth: number, at: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  const stop = r.readLength(end, 'Value.variant');
  let ctor: string | undefined;
  let v: Value | undefined;
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    const f = tag >>> 3;
    if (f === layout.variantCtor) {
      r.expectWire(tag, WIRE_LEN, 'Value.Variant.constructor', o);
      if (ctor !== undefined)
        r.fail('BLOB_DUPLICATE_FIELD', 'Value.Variant expected one constructor, got two', o);
      ctor = r.readString(stop, 'Value.Variant.constructor');
    } else if (f === layout.variantValue) {
      r.expectWire(tag, WIRE_LEN, 'Value.Variant.value', o);
      if (v !== undefined) r.fail('BLOB_DUPLICATE_FIELD', 'Value.Variant expected one value, got two', o);
      v = readNested(ctx, stop, depth);
    } else if (f === layout.variantId && layout.variantId !== 0) {
      r.fail('BLOB_INVALID_FIELD', 'Value.Variant.variant_id expected absent (must not be used), got one', o);
    } else r.unknownField(tag, stop, 'Value.Variant', o);
  }
  const name = ctor ?? '';
  if (!isDamlName(name)) {
    r.fail(
      'BLOB_INVALID_FIELD',
      `Value.Variant.constructor expected a Daml name, got ${formatGot(name)}`,
      at,
    );
  }
  if (v === undefined) r.fail('BLOB_INVALID_ONEOF', 'Value.Variant expected a value, got none', at);
  return { kind: 'variant', constructor: name, value: v };
}

function readEnum(ctx: ValueContext, end: number, at: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  const stop = r.readLength(end, 'Value.enum');
  let ctor: string | undefined;
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    const f = tag >>> 3;
    if (f === layout.enumValue) {
      r.expectWire(tag, WIRE_LEN, 'Value.Enum.value', o);
      if (ctor !== undefined) r.fail('BLOB_DUPLICATE_FIELD', 'Value.Enum expected one value, got two', o);
      ctor = r.readString(stop, 'Value.Enum.value');
    } else if (f === layout.enumId && layout.enumId !== 0) {
      r.fail('BLOB_INVALID_FIELD', 'Value.Enum.enum_id expected absent (must not be used), got one', o);
    } else r.unknownField(tag, stop, 'Value.Enum', o);
  }
  const name = ctor ?? '';
  if (!isDamlName(name)) {
    r.fail('BLOB_INVALID_FIELD', `Value.Enum.value expected a Daml name, got ${formatGot(name)}`, at);
  }
  return { kind: 'enum', constructor: name };
}

function readTextMap(ctx: ValueContext, end: number, depth: number, at: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  const stop = r.readLength(end, 'Value.text_map');
  const entries: [string, Value][] = [];
  let sorted = true;
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    if (tag >>> 3 !== layout.textMapEntries) {
      r.unknownField(tag, stop, 'Value.TextMap', o);
      continue;
    }
    r.expectWire(tag, WIRE_LEN, 'Value.TextMap.entries', o);
    const eStop = r.readLength(stop, 'Value.TextMap.Entry');
    let key: string | undefined;
    let v: Value | undefined;
    while (r.pos < eStop) {
      const o2 = r.pos;
      const t2 = r.readTag(eStop);
      const f2 = t2 >>> 3;
      if (f2 === layout.textMapKey) {
        r.expectWire(t2, WIRE_LEN, 'Value.TextMap.Entry.key', o2);
        if (key !== undefined)
          r.fail('BLOB_DUPLICATE_FIELD', 'Value.TextMap.Entry expected one key, got two', o2);
        key = r.readString(eStop, 'Value.TextMap.Entry.key');
      } else if (f2 === layout.textMapValue) {
        r.expectWire(t2, WIRE_LEN, 'Value.TextMap.Entry.value', o2);
        if (v !== undefined)
          r.fail('BLOB_DUPLICATE_FIELD', 'Value.TextMap.Entry expected one value, got two', o2);
        v = readNested(ctx, eStop, depth);
      } else r.unknownField(t2, eStop, 'Value.TextMap.Entry', o2);
    }
    if (v === undefined) r.fail('BLOB_INVALID_ONEOF', 'Value.TextMap.Entry expected a value, got none', o);
    const k = key ?? '';
    const prev = entries[entries.length - 1];
    if (prev !== undefined && compareCodePoints(prev[0], k) >= 0) sorted = false;
    entries.push([k, v]);
  }
  if (!sorted) entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i - 1]![0] === entries[i]![0]) {
      r.fail(
        'BLOB_DUPLICATE_MAP_KEY',
        `Value.TextMap expected unique keys, got ${formatGot(entries[i]![0])} twice`,
        at,
      );
    }
  }
  return { kind: 'textMap', entries };
}

function readGenMap(ctx: ValueContext, end: number, depth: number): Value {
  const r: WireReader = ctx.r;
  const layout = ctx.layout;
  const stop = r.readLength(end, 'Value.map');
  const entries: [Value, Value][] = [];
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    if (tag >>> 3 !== layout.genMapEntries) {
      r.unknownField(tag, stop, 'Value.Map', o);
      continue;
    }
    r.expectWire(tag, WIRE_LEN, 'Value.Map.entries', o);
    const eStop = r.readLength(stop, 'Value.Map.Entry');
    let k: Value | undefined;
    let v: Value | undefined;
    while (r.pos < eStop) {
      const o2 = r.pos;
      const t2 = r.readTag(eStop);
      const f2 = t2 >>> 3;
      if (f2 === layout.genMapKey) {
        r.expectWire(t2, WIRE_LEN, 'Value.Map.Entry.key', o2);
        if (k !== undefined) r.fail('BLOB_DUPLICATE_FIELD', 'Value.Map.Entry expected one key, got two', o2);
        k = readNested(ctx, eStop, depth);
      } else if (f2 === layout.genMapValue) {
        r.expectWire(t2, WIRE_LEN, 'Value.Map.Entry.value', o2);
        if (v !== undefined)
          r.fail('BLOB_DUPLICATE_FIELD', 'Value.Map.Entry expected one value, got two', o2);
        v = readNested(ctx, eStop, depth);
      } else r.unknownField(t2, eStop, 'Value.Map.Entry', o2);
    }
    if (k === undefined || v === undefined) {
      r.fail('BLOB_INVALID_ONEOF', 'Value.Map.Entry expected a key and a value, got less', o);
    }
    entries.push([k, v]);
  }
  return { kind: 'genMap', entries };
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
