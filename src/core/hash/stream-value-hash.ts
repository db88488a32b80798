/**
 * One-pass contract hash for V10/V11 (docs/protocol/contract-id.md §6.1, §6.2): walks the serialized
 * `create_arg` Value straight from the blob's bytes into the hash preimage (enc_L / ufRecord), with
 * the same wire reader and the same checks as the value decoder, without building the value tree.
 *
 * Names, parties and texts are validated on their bytes (validate-bytes.ts) and copied into the
 * preimage as they are — well-formed UTF-8 is its own encoding — so no JS string is built for them.
 *
 * It covers the common shapes only. Anything else — unknown fields, unsorted text maps, labels, a variant's
 * value before its constructor, Daml-2 contract-id structs, any decode error — makes it give up (null),
 * and the caller takes the full decoder path, which has the final word on every error.
 */
import type { LazyDecodedContract } from '../codec/blob-decoder.js';
import { CURRENT_VALUE, LEGACY_CONTRACT_ID_STRUCT, LEGACY_VALUE, type ValueLayout } from '../codec/schema.js';
import { checkContractIdBytes, MAX_DATE, MAX_TIMESTAMP, MIN_DATE, MIN_TIMESTAMP } from '../codec/validate.js';
import {
  compareByteRanges,
  isDamlNameBytes,
  isPartyIdBytes,
  isPartyIdBytesMemo,
  isUtf8Bytes,
  numericDigitsBytes,
} from '../codec/validate-bytes.js';
import { WIRE_LEN, WireReader } from '../codec/wire-reader.js';
import { HASH_VERSION_BYTE, LF_PURPOSE } from './contract-id-version.js';
import { HashBuilder } from './hash-builder.js';
import type { Sha256 } from './sha256.js';

/** Thrown inside the walk when the fast path does not handle the input. */
class GiveUp {}
const GIVE_UP = new GiveUp();

interface Walk {
  readonly r: WireReader;
  readonly layout: ValueLayout;
  readonly maxDepth: number;
  readonly b: HashBuilder;
  /** V10 (enc_L) or V11 (enc_U / ufRecord) */
  readonly legacy: boolean;
  /** a DataView of the whole input, for the remembered party check (null: check every byte) */
  readonly view: DataView | null;
}

const shared = new HashBuilder(8192);

/**
 * The V10/V11 contract hash of a lazily decoded contract, streamed from its `create_arg` bytes;
 * null when the fast path does not handle this input (the caller must use the full path).
 */
export function computeContractHashStreamed(
  lazy: LazyDecodedContract,
  version: 'v10' | 'v11',
  sha256: Sha256,
): Uint8Array | null {
  const c = lazy.contract;
  const legacy = version === 'v10';
  const b = shared.reset();
  const t = c.templateId;
  b.byte(HASH_VERSION_BYTE[legacy ? 'legacy' : 'upgradeFriendly'])
    .byte(LF_PURPOSE.contractInstance)
    .str(c.packageName);
  b.identifier(t.packageId, t.module, t.entity);
  if (!streamValueInto(b, lazy.bytes, lazy.argStart, lazy.argStop, c.layout, lazy.maxDepth, legacy))
    return null;
  return sha256(b.bytes());
}

/**
 * Appends the V10 (enc_L) or V11 (enc_U) encoding of the Value in `buf[start, stop)` to `b`;
 * false when the fast path does not handle it (then `b` holds a partial encoding).
 */
export function streamValueInto(
  b: HashBuilder,
  buf: Uint8Array,
  start: number,
  stop: number,
  layout: 'legacy' | 'current',
  maxDepth: number,
  legacy: boolean,
  view: DataView | null = null,
): boolean {
  const r = new WireReader(buf, null, buf.length);
  r.pos = start;
  const w: Walk = {
    r,
    layout: layout === 'legacy' ? LEGACY_VALUE : CURRENT_VALUE,
    maxDepth,
    b,
    legacy,
    view,
  };
  try {
    walkValue(w, stop, 1, -1);
  } catch {
    return false;
  }
  return true;
}

/** The content end of a length-delimited field; its content starts at `r.pos`. */
function span(r: WireReader, end: number): number {
  return r.readLength(end, 'Value');
}

/** Decodes the zigzag (sint64) varint `lo`/`hi` into the two's-complement halves `w64` (no bigint). */
const w64 = { hi: 0, lo: 0 };
function unzigzag(lo: number, hi: number): void {
  const neg = lo & 1;
  let nlo = (lo >>> 1) | (hi << 31);
  let nhi = hi >>> 1;
  if (neg !== 0) {
    nlo = ~nlo;
    nhi = ~nhi;
  }
  w64.hi = nhi | 0;
  w64.lo = nlo | 0;
}

/**
 * One Value in `[r.pos, end)`. `field` ≥ 0: V11 record-field form fld_U(field, v) (defaults
 * skipped); -1: enc_L (V10) or enc_U (V11).
 */
function walkValue(w: Walk, end: number, depth: number, field: number): void {
  const { r, layout, b } = w;
  if (depth > w.maxDepth || r.pos >= end) throw GIVE_UP;
  const tag = r.readTag(end);
  const f = tag >>> 3;
  const kind = f < layout.kindByField.length ? (layout.kindByField[f] as number) : 0;
  if (kind === 0 || (tag & 7) !== layout.wireByField[f]) throw GIVE_UP;
  // V11: the create argument must be a record
  if (depth === 1 && !w.legacy && kind !== 13) throw GIVE_UP;
  const F = field >= 0;
  switch (kind) {
    case 1: // unit
      if (r.readLength(end, 'Value.unit') !== r.pos) throw GIVE_UP;
      if (!F) b.byte(0);
      break;
    case 2: {
      const v = r.readBool(end, 'Value.bool');
      if (!F) b.byte(v ? 1 : 0);
      else if (v) b.i32(field).byte(1);
      break;
    }
    case 3: {
      r.readVarint64(end, 'Value.int64');
      unzigzag(r.lo, r.hi);
      if (!F) b.i64HiLo(w64.hi, w64.lo);
      else if ((w64.hi | w64.lo) !== 0) b.i32(field).i64HiLo(w64.hi, w64.lo);
      break;
    }
    case 4: {
      const v = r.readInt32(end, 'Value.date');
      if (v < MIN_DATE || v > MAX_DATE) throw GIVE_UP;
      if (!F) b.i32(v);
      else if (v !== 0) b.i32(field).i32(v);
      break;
    }
    case 5: {
      const v = r.readSfixed64(end, 'Value.timestamp');
      if (v < MIN_TIMESTAMP || v > MAX_TIMESTAMP) throw GIVE_UP;
      if (!F) b.i64(v);
      else if (v !== 0n) b.i32(field).i64(v);
      break;
    }
    case 6: {
      const nStop = span(r, end);
      const at = r.pos;
      const digits = numericDigitsBytes(r.buf, at, nStop);
      if (digits < 0) throw GIVE_UP;
      r.pos = nStop;
      const mark = b.length;
      if (F) b.i32(field);
      // V11 field form: a zero numeric is a default, skipped
      if (b.numericRange(r.buf, at, nStop) && F) b.truncate(mark);
      break;
    }
    case 7: {
      const stop = span(r, end);
      const at = r.pos;
      if (w.view !== null ? !isPartyIdBytesMemo(r.buf, w.view, at, stop) : !isPartyIdBytes(r.buf, at, stop))
        throw GIVE_UP;
      r.pos = stop;
      if (F) b.i32(field);
      b.strRange(r.buf, at, stop);
      break;
    }
    case 8: {
      const stop = span(r, end);
      const at = r.pos;
      if (!isUtf8Bytes(r.buf, at, stop, w.view)) throw GIVE_UP;
      r.pos = stop;
      if (!F) b.strRange(r.buf, at, stop);
      else if (stop > at) b.i32(field).strRange(r.buf, at, stop);
      break;
    }
    case 9: {
      const stop = r.readLength(end, 'Value.contract_id');
      if (
        layout.name === 'legacy' &&
        stop > r.pos &&
        r.buf[r.pos] === ((LEGACY_CONTRACT_ID_STRUCT << 3) | WIRE_LEN)
      )
        throw GIVE_UP;
      const bytes = r.buf.subarray(r.pos, stop);
      r.pos = stop;
      if (checkContractIdBytes(bytes) !== null) throw GIVE_UP;
      if (F) b.i32(field);
      b.lp(bytes);
      break;
    }
    case 10: {
      const stop = r.readLength(end, 'Value.optional');
      if (stop === r.pos) {
        if (!F) w.legacy ? b.i32(0) : b.byte(0);
        break;
      }
      if (F) b.i32(field);
      else w.legacy ? b.i32(1) : b.byte(1);
      nested(w, stop, layout.optionalValue, depth, -1);
      if (r.pos !== stop) throw GIVE_UP;
      break;
    }
    case 11: {
      const stop = r.readLength(end, 'Value.list');
      if (F) {
        if (stop === r.pos) break;
        b.i32(field);
      }
      const countAt = b.length;
      b.i32(0);
      let n = 0;
      while (r.pos < stop) {
        nested(w, stop, layout.listElements, depth, -1);
        n++;
      }
      b.patchI32(countAt, n);
      break;
    }
    case 13: {
      const stop = r.readLength(end, 'Value.record');
      if (F) b.i32(field);
      const countAt = b.length;
      if (w.legacy) b.i32(0);
      let n = 0;
      while (r.pos < stop) {
        // Record.Field { value } with nothing else
        const t = r.readTag(stop);
        if (t >>> 3 !== layout.recordFields || (t & 7) !== WIRE_LEN) throw GIVE_UP;
        const fStop = r.readLength(stop, 'Value.Record.Field');
        nested(w, fStop, layout.fieldValue, depth, w.legacy ? -1 : n);
        if (r.pos !== fStop) throw GIVE_UP;
        n++;
      }
      if (w.legacy) b.patchI32(countAt, n);
      else b.byte(0xff);
      break;
    }
    case 14: {
      const stop = r.readLength(end, 'Value.variant');
      // constructor first, then the value, nothing else
      const t = r.readTag(stop);
      if (t >>> 3 !== layout.variantCtor || (t & 7) !== WIRE_LEN) throw GIVE_UP;
      const cStop = span(r, stop);
      const at = r.pos;
      if (!isDamlNameBytes(r.buf, at, cStop)) throw GIVE_UP;
      r.pos = cStop;
      if (F) b.i32(field);
      b.strRange(r.buf, at, cStop);
      nested(w, stop, layout.variantValue, depth, -1);
      if (r.pos !== stop) throw GIVE_UP;
      break;
    }
    case 15: {
      const stop = r.readLength(end, 'Value.enum');
      const t = r.readTag(stop);
      if (t >>> 3 !== layout.enumValue || (t & 7) !== WIRE_LEN) throw GIVE_UP;
      const cStop = span(r, stop);
      const at = r.pos;
      if (cStop !== stop || !isDamlNameBytes(r.buf, at, cStop)) throw GIVE_UP;
      r.pos = cStop;
      if (F) b.i32(field);
      b.strRange(r.buf, at, cStop);
      break;
    }
    case 16: // TextMap: entries already strictly sorted (else the decoder's sort and checks decide)
    case 12: {
      // GenMap: entries in blob order
      const text = kind === 16;
      const stop = r.readLength(end, text ? 'Value.text_map' : 'Value.map');
      if (F && stop === r.pos) break;
      // V11 quirk (§6.3): a non-empty map field is written without its field index
      const countAt = b.length;
      b.i32(0);
      let n = 0;
      let prevAt = -1;
      let prevStop = -1;
      while (r.pos < stop) {
        const t = r.readTag(stop);
        if (t >>> 3 !== (text ? layout.textMapEntries : layout.genMapEntries) || (t & 7) !== WIRE_LEN)
          throw GIVE_UP;
        const eStop = r.readLength(stop, 'Value.Map.Entry');
        if (text) {
          const tk = r.readTag(eStop);
          if (tk >>> 3 !== layout.textMapKey || (tk & 7) !== WIRE_LEN) throw GIVE_UP;
          const kStop = span(r, eStop);
          const at = r.pos;
          if (!isUtf8Bytes(r.buf, at, kStop, w.view)) throw GIVE_UP;
          // UTF-8 byte order is code-point order
          if (prevAt >= 0 && compareByteRanges(r.buf, prevAt, prevStop, at, kStop) >= 0) throw GIVE_UP;
          prevAt = at;
          prevStop = kStop;
          r.pos = kStop;
          b.strRange(r.buf, at, kStop);
          nested(w, eStop, layout.textMapValue, depth, -1);
        } else {
          nested(w, eStop, layout.genMapKey, depth, -1);
          nested(w, eStop, layout.genMapValue, depth, -1);
        }
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
}

/** A length-delimited nested Value under tag `expectField` (wire type LEN), at depth + 1. */
function nested(w: Walk, end: number, expectField: number, depth: number, field: number): void {
  const r = w.r;
  const t = r.readTag(end);
  if (t >>> 3 !== expectField || (t & 7) !== WIRE_LEN) throw GIVE_UP;
  const stop = r.readLength(end, 'Value');
  walkValue(w, stop, depth + 1, field);
}
