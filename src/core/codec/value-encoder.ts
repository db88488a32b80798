/**
 * Encodes an untyped Value tree as a serialized Daml-LF `Value` the way Canton writes it
 * (docs/protocol/blob-format.md §3.2, §4): oneof members always written (`10 00` for false, `42 00` for ""),
 * records positional with no labels, TextMap entries sorted by key with an empty key omitted (a
 * proto3 default), numerics exactly as given. The legacy LF-1 numbering (§3.3) is available for
 * re-encoding legacy blobs. Input is validated; problems are `ENCODE_INVALID_INPUT`.
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { formatHex } from './bytes.js';
import { guardEncode } from './guard.js';
import { MAX_ALLOWED_DEPTH } from './limits.js';
import { CURRENT_VALUE, K, LEGACY_CONTRACT_ID_STRUCT, LEGACY_VALUE, type ValueLayout } from './schema.js';
import { compareCodePoints, utf8Length } from './utf8.js';
import {
  checkContractIdBytes,
  checkNumeric,
  isDamlName,
  isPartyId,
  MAX_DATE,
  MAX_TIMESTAMP,
  MIN_DATE,
  MIN_TIMESTAMP,
} from './validate.js';
import type { Value } from './value.js';
import { WireWriter } from './wire-writer.js';

export interface EncodeValueOptions {
  /** LF-2 numbering (default) or LF-1 legacy */
  readonly layout?: 'current' | 'legacy';
  /** legacy only: write contract ids as Daml 2.x `ContractId{ string }` hex (versions 14/15/17) */
  readonly legacyContractIdAsText?: boolean;
}

interface EncodeContext {
  readonly w: WireWriter;
  readonly layout: ValueLayout;
  readonly cidAsText: boolean;
}

const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

function bad(what: string, expected: string, got: unknown): never {
  throw new CodecError('ENCODE_INVALID_INPUT', `"${what}" expected ${expected}, got ${formatGot(got)}`);
}

/** Encodes one Value as the bytes of a bare `Value` message. */
export function encodeValue(value: Value, options: EncodeValueOptions = {}): Uint8Array {
  return guardEncode(() => encodeValueUnguarded(value, options));
}

function encodeValueUnguarded(value: Value, options: EncodeValueOptions): Uint8Array {
  const w = new WireWriter(256);
  writeValueBody(
    {
      w,
      layout: options.layout === 'legacy' ? LEGACY_VALUE : CURRENT_VALUE,
      cidAsText: options.legacyContractIdAsText === true,
    },
    value,
    1,
  );
  return w.finish();
}

/** Writes `value` as the content of the current sub-message (used by the blob encoder). */
export function writeValueInto(w: WireWriter, value: Value, options: EncodeValueOptions = {}): void {
  writeValueBody(
    {
      w,
      layout: options.layout === 'legacy' ? LEGACY_VALUE : CURRENT_VALUE,
      cidAsText: options.legacyContractIdAsText === true,
    },
    value,
    1,
  );
}

function writeText(w: WireWriter, field: number, s: unknown, what: string): void {
  if (typeof s !== 'string' || utf8Length(s) < 0) bad(what, 'a string without lone surrogates', s);
  w.writeStringField(field, s);
}

function writeNested(ctx: EncodeContext, field: number, v: Value, depth: number): void {
  const mark = ctx.w.beginMessage(field);
  writeValueBody(ctx, v, depth + 1);
  ctx.w.endMessage(mark);
}

function writeValueBody(ctx: EncodeContext, v: Value, depth: number): void {
  const { w, layout } = ctx;
  if (depth > MAX_ALLOWED_DEPTH) bad('value', `nesting depth ≤ ${MAX_ALLOWED_DEPTH}`, depth);
  if ((v as unknown) === null || typeof (v as unknown) !== 'object') bad('value', 'a Value object', v);
  const fk = layout.fieldByKind;
  switch (v.kind) {
    case 'unit':
      w.endMessage(w.beginMessage(fk[K.unit]!));
      return;
    case 'bool':
      if (typeof (v.value as unknown) !== 'boolean') bad('bool', 'a boolean', v.value as unknown);
      w.writeVarintField(fk[K.bool]!, v.value ? 1 : 0);
      return;
    case 'int64':
      if (typeof v.value !== 'bigint' || v.value < MIN_INT64 || v.value > MAX_INT64) {
        bad('int64', 'a bigint in the int64 range', v.value);
      }
      w.writeSint64Field(fk[K.int64]!, v.value);
      return;
    case 'date':
      if (!Number.isInteger(v.value) || v.value < MIN_DATE || v.value > MAX_DATE) {
        bad('date', `an integer day in ${MIN_DATE}..${MAX_DATE}`, v.value);
      }
      w.writeVarintField(fk[K.date]!, v.value);
      return;
    case 'timestamp':
      if (typeof v.value !== 'bigint' || v.value < MIN_TIMESTAMP || v.value > MAX_TIMESTAMP) {
        bad('timestamp', 'a bigint µs within years 1..9999', v.value);
      }
      w.writeSfixed64Field(fk[K.timestamp]!, v.value);
      return;
    case 'numeric': {
      const rule = typeof v.value === 'string' ? checkNumeric(v.value) : 'a numeric string';
      if (rule !== null) bad('numeric', rule, v.value);
      w.writeStringField(fk[K.numeric]!, v.value);
      return;
    }
    case 'party':
      if (typeof v.value !== 'string' || !isPartyId(v.value)) bad('party', 'a party id', v.value);
      w.writeStringField(fk[K.party]!, v.value);
      return;
    case 'text':
      writeText(w, fk[K.text]!, v.value, 'text');
      return;
    case 'contractId': {
      const rule = v.value instanceof Uint8Array ? checkContractIdBytes(v.value) : 'contract-id bytes';
      if (rule !== null) bad('contractId', rule, v.value);
      if (ctx.cidAsText) {
        const mark = w.beginMessage(fk[K.contractId]!);
        w.writeStringField(LEGACY_CONTRACT_ID_STRUCT, formatHex(v.value));
        w.endMessage(mark);
      } else w.writeBytesField(fk[K.contractId]!, v.value);
      return;
    }
    case 'optional': {
      const mark = w.beginMessage(fk[K.optional]!);
      if (v.value !== null) writeNested(ctx, layout.optionalValue, v.value, depth);
      w.endMessage(mark);
      return;
    }
    case 'list': {
      if (!Array.isArray(v.elements)) bad('list', 'an elements array', v.elements);
      const mark = w.beginMessage(fk[K.list]!);
      for (const e of v.elements) writeNested(ctx, layout.listElements, e, depth);
      w.endMessage(mark);
      return;
    }
    case 'record': {
      if (!Array.isArray(v.fields)) bad('record', 'a fields array', v.fields);
      const mark = w.beginMessage(fk[K.record]!);
      for (const field of v.fields) {
        const fm = w.beginMessage(layout.recordFields);
        writeNested(ctx, layout.fieldValue, field, depth);
        w.endMessage(fm);
      }
      w.endMessage(mark);
      return;
    }
    case 'variant':
    case 'enum': {
      // an enum is a variant without a value
      if (typeof v.constructor !== 'string' || !isDamlName(v.constructor)) {
        bad(`${v.kind}.constructor`, 'a Daml name', v.constructor);
      }
      const mark = w.beginMessage(fk[K[v.kind]]!);
      w.writeStringField(v.kind === 'enum' ? layout.enumValue : layout.variantCtor, v.constructor);
      if (v.kind === 'variant') writeNested(ctx, layout.variantValue, v.value, depth);
      w.endMessage(mark);
      return;
    }
    case 'textMap': {
      if (!Array.isArray(v.entries)) bad('textMap', 'an entries array', v.entries);
      const entries = [...v.entries].sort((a, b) => compareCodePoints(a[0], b[0]));
      const mark = w.beginMessage(fk[K.textMap]!);
      for (let i = 0; i < entries.length; i++) {
        const [key, val] = entries[i]!;
        if (i > 0 && entries[i - 1]![0] === key) bad('textMap', 'unique keys', key);
        const em = w.beginMessage(layout.textMapEntries);
        if (key !== '') writeText(w, layout.textMapKey, key, 'textMap key');
        writeNested(ctx, layout.textMapValue, val, depth);
        w.endMessage(em);
      }
      w.endMessage(mark);
      return;
    }
    case 'genMap': {
      if (!Array.isArray(v.entries)) bad('genMap', 'an entries array', v.entries);
      const mark = w.beginMessage(fk[K.genMap]!);
      for (const [key, val] of v.entries) {
        const em = w.beginMessage(layout.genMapEntries);
        writeNested(ctx, layout.genMapKey, key, depth);
        writeNested(ctx, layout.genMapValue, val, depth);
        w.endMessage(em);
      }
      w.endMessage(mark);
      return;
    }
    default:
      bad('value.kind', 'a Value kind', (v as { kind?: unknown }).kind);
  }
}
