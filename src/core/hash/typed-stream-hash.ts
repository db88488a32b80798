/**
 * V12 (TypedNormalForm, docs/protocol/contract-id.md §6.4, §6.5 enc_T) straight from the blob's bytes: the
 * `create_arg` Value is read off the wire and typed as it is encoded — the rules of the fused
 * typer/encoder typed-value-hash.ts, over the wire checks of stream-value-hash.ts — without a
 * value tree and without strings (names, parties and texts are validated on their bytes and
 * copied; variant and enum constructors are matched against the compiled type's bytes).
 *
 * Like the walks it joins, it answers only the shapes it knows and gives up (false) on anything
 * else — a wire form the decoder would treat specially, a value that does not fit its type, any
 * decode error — and the caller takes the full path, which has the final word.
 */
import { CURRENT_VALUE, type ValueLayout } from '../codec/schema.js';
import { checkContractIdBytes, MAX_DATE, MAX_TIMESTAMP, MIN_DATE, MIN_TIMESTAMP } from '../codec/validate.js';
import {
  compareByteRanges,
  isDamlNameBytes,
  isPartyIdBytes,
  isPartyIdBytesMemo,
  isUtf8Bytes,
  numericDigitsBytes,
} from '../codec/validate-bytes.js';
import { WireReader } from '../codec/wire-reader.js';
import type { DamlType, DataTypeDef } from '../types/daml-type.js';
import type { TemplateResolution, TypeEnv } from '../types/type-env.js';
import { resolveDataTypeRef } from '../types/type-env.js';
import { DEFAULT_MAX_TYPING_DEPTH } from '../types/type-value.js';
import type { HashBuilder } from './hash-builder.js';
import { type Frame, resolved, resolveTypeVars } from './type-frames.js';
import { TNF_TAG } from './typed-normal-form-hash.js';
import { type Compiled, compile, consCache } from './typed-value-hash.js';

class GiveUp {}
const GIVE_UP = new GiveUp();
const LEN = 2;
const L: ValueLayout = CURRENT_VALUE;
const latin1 = new TextDecoder('latin1');

interface Walk {
  readonly r: WireReader;
  readonly b: HashBuilder;
  readonly env: TypeEnv;
  readonly cons: Map<DamlType, Compiled>;
  readonly home: TemplateResolution['package'];
  readonly maxDepth: number;
  /** a DataView of the whole input, for the remembered party check (null: check every byte) */
  readonly view: DataView | null;
}

/**
 * Appends enc_T of the current-layout create argument in `buf[start, stop)`, typed as the
 * template's record; false when this walk does not answer (then `b` holds a partial encoding).
 */
export function streamTypedValueInto(
  b: HashBuilder,
  buf: Uint8Array,
  start: number,
  stop: number,
  env: TypeEnv,
  resolution: TemplateResolution,
  maxDepth: number,
  view: DataView | null = null,
): boolean {
  const def = resolution.dataType;
  if (def.params.length !== 0) return false;
  const r = new WireReader(buf, null, buf.length);
  r.pos = start;
  const w: Walk = {
    r,
    b,
    env,
    cons: consCache(env, resolution.package),
    home: resolution.package,
    maxDepth: Math.min(maxDepth, DEFAULT_MAX_TYPING_DEPTH + 1),
    view,
  };
  try {
    // the create argument: a record Value of the template's type
    if (r.pos >= stop) return false;
    const tag = r.readTag(stop);
    if (tag !== (((L.fieldByKind[13] as number) << 3) | LEN)) return false;
    const rStop = r.readLength(stop, 'Value.record');
    record(w, rStop, def as Extract<DataTypeDef, { kind: 'record' }>, compile(def), null, 1);
    return r.pos === stop;
  } catch {
    return false;
  }
}

function resolve(t: DamlType, frame: Frame | null): void {
  if (!resolveTypeVars(t, frame)) throw GIVE_UP;
}

function isOptionalType(t: DamlType, frame: Frame | null): boolean {
  resolve(t, frame);
  return resolved.type.kind === 'optional';
}

/** A nested Value under tag `expectField` (wire type LEN) ending at `end`, typed `t`; true when it is None. */
function nested(
  w: Walk,
  end: number,
  expectField: number,
  t: DamlType,
  frame: Frame | null,
  depth: number,
): boolean {
  const r = w.r;
  const tag = r.readTag(end);
  if (tag >>> 3 !== expectField || (tag & 7) !== LEN) throw GIVE_UP;
  const stop = r.readLength(end, 'Value');
  return value(w, stop, t, frame, depth + 1);
}

/** One Value in `[r.pos, end)` of type `t0`; returns true when it is an empty optional. */
function value(w: Walk, end: number, t0: DamlType, f0: Frame | null, depth: number): boolean {
  const { r, b } = w;
  if (depth > w.maxDepth || r.pos >= end) throw GIVE_UP;
  let t = t0;
  let frame = f0;
  if (t.kind === 'var') {
    resolve(t0, f0);
    t = resolved.type;
    frame = resolved.frame;
  }
  const tag = r.readTag(end);
  const f = tag >>> 3;
  const kind = f < L.kindByField.length ? (L.kindByField[f] as number) : 0;
  if (kind === 0 || (tag & 7) !== L.wireByField[f]) throw GIVE_UP;
  const buf = r.buf;
  let none = false;
  switch (kind) {
    case 1: // unit
      if (t.kind !== 'unit' || r.readLength(end, 'Value.unit') !== r.pos) throw GIVE_UP;
      b.byte(TNF_TAG.unit);
      break;
    case 2:
      if (t.kind !== 'bool') throw GIVE_UP;
      b.byte(TNF_TAG.bool).byte(r.readBool(end, 'Value.bool') ? 1 : 0);
      break;
    case 3: {
      if (t.kind !== 'int64') throw GIVE_UP;
      r.readVarint64(end, 'Value.int64');
      const lo = r.lo;
      const hi = r.hi;
      let nlo = (lo >>> 1) | (hi << 31);
      let nhi = hi >>> 1;
      if ((lo & 1) !== 0) {
        nlo = ~nlo;
        nhi = ~nhi;
      }
      b.byte(TNF_TAG.int64).i64HiLo(nhi, nlo);
      break;
    }
    case 4: {
      if (t.kind !== 'date') throw GIVE_UP;
      const v = r.readInt32(end, 'Value.date');
      if (v < MIN_DATE || v > MAX_DATE) throw GIVE_UP;
      b.byte(TNF_TAG.date).i32(v);
      break;
    }
    case 5: {
      if (t.kind !== 'timestamp') throw GIVE_UP;
      const v = r.readSfixed64(end, 'Value.timestamp');
      if (v < MIN_TIMESTAMP || v > MAX_TIMESTAMP) throw GIVE_UP;
      b.byte(TNF_TAG.timestamp).i64(v);
      break;
    }
    case 6: {
      if (t.kind !== 'numeric') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.numeric');
      const at = r.pos;
      const digits = numericDigitsBytes(buf, at, stop);
      if (digits < 0) throw GIVE_UP;
      // the scale = digits after the '.'
      let dot = stop - 1;
      while (buf[dot] !== 46) dot--;
      if (stop - 1 - dot !== t.scale) throw GIVE_UP;
      r.pos = stop;
      b.byte(TNF_TAG.numeric);
      b.numericRange(buf, at, stop);
      break;
    }
    case 7: {
      if (t.kind !== 'party') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.party');
      if (w.view !== null ? !isPartyIdBytesMemo(buf, w.view, r.pos, stop) : !isPartyIdBytes(buf, r.pos, stop))
        throw GIVE_UP;
      b.byte(TNF_TAG.party).strRange(buf, r.pos, stop);
      r.pos = stop;
      break;
    }
    case 8: {
      if (t.kind !== 'text') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.text');
      if (!isUtf8Bytes(buf, r.pos, stop, w.view)) throw GIVE_UP;
      b.byte(TNF_TAG.text).strRange(buf, r.pos, stop);
      r.pos = stop;
      break;
    }
    case 9: {
      if (t.kind !== 'contractId') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.contract_id');
      const bytes = buf.subarray(r.pos, stop);
      if (checkContractIdBytes(bytes) !== null) throw GIVE_UP;
      r.pos = stop;
      b.byte(TNF_TAG.contractId).lp(bytes);
      break;
    }
    case 10: {
      if (t.kind !== 'optional') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.optional');
      b.byte(TNF_TAG.optional);
      if (stop === r.pos) {
        b.byte(0);
        none = true;
        break;
      }
      b.byte(1);
      nested(w, stop, L.optionalValue, t.type, frame, depth);
      if (r.pos !== stop) throw GIVE_UP;
      break;
    }
    case 11: {
      if (t.kind !== 'list') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.list');
      b.byte(TNF_TAG.list);
      const countAt = b.length;
      b.i32(0);
      let n = 0;
      while (r.pos < stop) {
        nested(w, stop, L.listElements, t.type, frame, depth);
        n++;
      }
      b.patchI32(countAt, n);
      break;
    }
    case 13:
    case 14:
    case 15: {
      if (t.kind !== 'con') throw GIVE_UP;
      let c = w.cons.get(t);
      if (c === undefined) {
        const def = resolveDataTypeRef(w.env, t.ref, w.home);
        if (def === undefined || def.params.length !== t.args.length) throw GIVE_UP;
        c = compile(def);
        w.cons.set(t, c);
      }
      const def = c.def;
      const inner = def.params.length === 0 ? null : { params: def.params, args: t.args, parent: frame };
      const stop = r.readLength(end, 'Value');
      if (kind === 13 && def.kind === 'record') record(w, stop, def, c, inner, depth);
      else if (kind === 14 && def.kind === 'variant') variant(w, stop, def, c, inner, depth);
      else if (kind === 15 && def.kind === 'enum') enumValue(w, stop, c);
      else throw GIVE_UP;
      break;
    }
    case 16: {
      if (t.kind !== 'textMap') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.text_map');
      b.byte(TNF_TAG.textMap);
      const countAt = b.length;
      b.i32(0);
      let n = 0;
      let prevAt = -1;
      let prevStop = -1;
      while (r.pos < stop) {
        const te = r.readTag(stop);
        if (te >>> 3 !== L.textMapEntries || (te & 7) !== LEN) throw GIVE_UP;
        const eStop = r.readLength(stop, 'Value.TextMap.Entry');
        const tk = r.readTag(eStop);
        if (tk >>> 3 !== L.textMapKey || (tk & 7) !== LEN) throw GIVE_UP;
        const kStop = r.readLength(eStop, 'Value.TextMap.Entry.key');
        const at = r.pos;
        if (!isUtf8Bytes(buf, at, kStop, w.view)) throw GIVE_UP;
        // strictly sorted already (UTF-8 byte order is code-point order), else the decoder decides
        if (prevAt >= 0 && compareByteRanges(buf, prevAt, prevStop, at, kStop) >= 0) throw GIVE_UP;
        prevAt = at;
        prevStop = kStop;
        r.pos = kStop;
        b.strRange(buf, at, kStop);
        nested(w, eStop, L.textMapValue, t.value, frame, depth);
        if (r.pos !== eStop) throw GIVE_UP;
        n++;
      }
      b.patchI32(countAt, n);
      break;
    }
    case 12: {
      if (t.kind !== 'genMap') throw GIVE_UP;
      const stop = r.readLength(end, 'Value.map');
      b.byte(TNF_TAG.genMap);
      const countAt = b.length;
      b.i32(0);
      let n = 0;
      while (r.pos < stop) {
        const te = r.readTag(stop);
        if (te >>> 3 !== L.genMapEntries || (te & 7) !== LEN) throw GIVE_UP;
        const eStop = r.readLength(stop, 'Value.Map.Entry');
        nested(w, eStop, L.genMapKey, t.key, frame, depth);
        nested(w, eStop, L.genMapValue, t.value, frame, depth);
        if (r.pos !== eStop) throw GIVE_UP;
        n++;
      }
      b.patchI32(countAt, n);
      break;
    }
    default:
      throw GIVE_UP;
  }
  if (r.pos !== end) throw GIVE_UP;
  return none;
}

/** A Record's fields in `[r.pos, stop)`: head ‖ (label ‖ enc_T(v))… ‖ ff, trailing Nones dropped. */
function record(
  w: Walk,
  stop: number,
  def: Extract<DataTypeDef, { kind: 'record' }>,
  c: Compiled,
  frame: Frame | null,
  depth: number,
): void {
  const { r, b } = w;
  const fs = def.fields;
  b.raw(c.head);
  let keep = b.length;
  let n = 0;
  while (r.pos < stop) {
    // Record.Field { value } with nothing else
    const t = r.readTag(stop);
    if (t >>> 3 !== L.recordFields || (t & 7) !== LEN) throw GIVE_UP;
    const fStop = r.readLength(stop, 'Value.Record.Field');
    const field = fs[n];
    if (field === undefined) throw GIVE_UP;
    b.raw(c.parts[n] as Uint8Array);
    const none = nested(w, fStop, L.fieldValue, field.type, frame, depth);
    if (r.pos !== fStop) throw GIVE_UP;
    if (!none) keep = b.length;
    n++;
  }
  // fields left out must be optional
  for (let i = n; i < fs.length; i++)
    if (!isOptionalType((fs[i] as { type: DamlType }).type, frame)) throw GIVE_UP;
  b.truncate(keep).byte(0xff);
}

/** The index of the constructor whose name is `buf[at, stop)`: bytes 4.. of `parts[i]` from `skip`. */
function rankOf(c: Compiled, buf: Uint8Array, at: number, stop: number, skip: number): number {
  const n = stop - at;
  // many constructors: the name → rank map (a scan per value would be O(values × constructors))
  if (c.parts.length > 16) return c.ranks.get(latin1.decode(buf.subarray(at, stop))) ?? -1;
  for (let i = 0; i < c.parts.length; i++) {
    const p = c.parts[i] as Uint8Array;
    // part = [skip bytes] ‖ i32(len) ‖ name ‖ i32(rank)
    if (p.length !== skip + 4 + n + 4) continue;
    let d = 0;
    for (let k = 0; k < n; k++) d |= (p[skip + 4 + k] as number) ^ (buf[at + k] as number);
    if (d === 0) return i;
  }
  return -1;
}

function variant(
  w: Walk,
  stop: number,
  def: Extract<DataTypeDef, { kind: 'variant' }>,
  c: Compiled,
  frame: Frame | null,
  depth: number,
): void {
  const { r, b } = w;
  // constructor first, then the value, nothing else
  const t = r.readTag(stop);
  if (t >>> 3 !== L.variantCtor || (t & 7) !== LEN) throw GIVE_UP;
  const cStop = r.readLength(stop, 'Value.Variant.constructor');
  const at = r.pos;
  if (!isDamlNameBytes(r.buf, at, cStop)) throw GIVE_UP;
  const rank = rankOf(c, r.buf, at, cStop, 0);
  if (rank < 0) throw GIVE_UP;
  r.pos = cStop;
  b.raw(c.head).raw(c.parts[rank] as Uint8Array);
  nested(w, stop, L.variantValue, (def.constructors[rank] as { type: DamlType }).type, frame, depth);
  if (r.pos !== stop) throw GIVE_UP;
}

function enumValue(w: Walk, stop: number, c: Compiled): void {
  const { r, b } = w;
  const t = r.readTag(stop);
  if (t >>> 3 !== L.enumValue || (t & 7) !== LEN) throw GIVE_UP;
  const cStop = r.readLength(stop, 'Value.Enum.value');
  const at = r.pos;
  if (cStop !== stop || !isDamlNameBytes(r.buf, at, cStop)) throw GIVE_UP;
  const rank = rankOf(c, r.buf, at, cStop, c.head.length);
  if (rank < 0) throw GIVE_UP;
  r.pos = cStop;
  b.raw(c.parts[rank] as Uint8Array);
}
