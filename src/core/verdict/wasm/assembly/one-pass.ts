/**
 * The verdict engine's walk in WebAssembly (AssemblyScript; compiled by `npm run gen:wasm` into
 * ../generated/one-pass-wasm.ts). It re-implements the reference encoders of src/core/hash (V10,
 * V11 and V12) for the canonical shape only: it walks the `Versioned` envelope and the current-layout `FatContractInstance` in the input area and
 * writes the contract-hash preimage (docs/protocol/contract-id.md §6.1, §6.2, §6.4); given the contract hash
 * it writes the unicum preimage (§5). The caller (../engine.ts) hashes both, and for V12 lays
 * out the template's type as nodes (../type-layout.ts) when asked.
 *
 * It may give up on anything (then the reference walk decides), but whatever it accepts must be
 * what the reference verifies, with the same contract hash: every check the decoder makes on an
 * input this walk accepts is made here too (test/verdict/engine-cases.test.ts holds it to the
 * reference on real vectors, fuzz cases, truncations and generated contracts).
 *
 * Memory: [INPUT, INPUT + MAX_INPUT) the blob; the contract preimage at CONTRACT (room for 8 bytes
 * per input byte — no value writes more than 3 per byte it spans, V12 adds a tag per value and the
 * type's names, which the room and the TYPES area bound); the unicum preimage at UNICUM; the spans
 * the caller reads at SPANS (i32s); the V12 type nodes in TYPES. configure() grows the memory to it.
 */

// The layout (the caller reads it through layout()).
const INPUT: u32 = 65536;
const MAX_INPUT: u32 = 65536;
const CONTRACT: u32 = INPUT + MAX_INPUT;
const UNICUM: u32 = CONTRACT + 8 * MAX_INPUT + 4096;
/**
 * The contract preimage may not pass this: a value starts only below it, with room for one input-
 * sized string after it, and a V12 type piece (a head, a label, a constructor) is copied only below
 * it — the types, not the blob, decide their size (a long type name on many empty records).
 */
const CONTRACT_LIMIT: u32 = CONTRACT + 7 * MAX_INPUT;
const SPANS: u32 = UNICUM + 40960;
const SIGS: u32 = SPANS + 64;
const OTHERS: u32 = SIGS + 512;
const CLASS: u32 = OTHERS + 512;
/** V12: the type nodes the caller lays out (see typedValue) */
const TYPES: u32 = CLASS + 256;
const TYPES_BYTES: u32 = 262144;
const END_OF_LAYOUT: u32 = TYPES + TYPES_BYTES;

const MAX_DEPTH: u32 = 100;
const MAX_PARTIES: u32 = 64;

// byte classes (the rules of src/core/codec/validate.ts, on bytes)
const PARTY: u32 = 1;
const NAME_START: u32 = 2;
const NAME_PART: u32 = 4;
const PACKAGE_NAME: u32 = 8;

// the hash constants, set once by configure() from src/core/hash/contract-id-version.ts
let versionLegacy: u32 = 0;
let versionUpgradeFriendly: u32 = 0;
let versionTyped: u32 = 0;
let purposeContract: u32 = 0;
let purposeUnicum: u32 = 0;

// walk state
let P: u32 = 0;
let O: u32 = 0;
let LEGACY: bool = true;
let FAILED: bool = false;
let nSigs: u32 = 0;
let nOthers: u32 = 0;
let saltAt: u32 = 0;
let secsHi: i32 = 0;
let secsLo: i32 = 0;
let nanos: i32 = 0;

/** The layout for the caller: input, max input, contract preimage, unicum preimage, spans, types, types size, memory end. */
export function layout(i: u32): u32 {
  if (i == 0) return INPUT;
  if (i == 1) return MAX_INPUT;
  if (i == 2) return CONTRACT;
  if (i == 3) return UNICUM;
  if (i == 4) return SPANS;
  if (i == 5) return TYPES;
  if (i == 6) return TYPES_BYTES;
  return END_OF_LAYOUT;
}

export function configure(
  legacyByte: u32,
  upgradeFriendlyByte: u32,
  typedByte: u32,
  contractPurpose: u32,
  unicumPurpose: u32,
): void {
  // the layout's pages (the memory never grows after this)
  const pages = <i32>((END_OF_LAYOUT + 65535) >> 16);
  if (memory.size() < pages && memory.grow(pages - memory.size()) < 0) unreachable();
  versionLegacy = legacyByte;
  versionUpgradeFriendly = upgradeFriendlyByte;
  versionTyped = typedByte;
  purposeContract = contractPurpose;
  purposeUnicum = unicumPurpose;
  for (let c: u32 = 0; c < 256; c++) {
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    const digit = c >= 48 && c <= 57;
    let k: u32 = 0;
    if (c < 128) {
      if (letter || digit || c == 58 || c == 95 || c == 45 || c == 32) k |= PARTY;
      if (letter || c == 95 || c == 36) k |= NAME_START | NAME_PART;
      if (digit) k |= NAME_PART;
      if (letter || digit || c == 46 || c == 95 || c == 45) k |= PACKAGE_NAME;
    }
    store<u8>(CLASS + c, <u8>k);
  }
}

@inline function at(p: u32): u32 {
  return <u32>load<u8>(p);
}

/** Fails the walk (it then declines); `return failed()` where a bool is returned. */
@inline function failed(): bool {
  FAILED = true;
  return false;
}

/** A length prefix at P whose content ends by `end`: sets P to the content, returns its end. */
@inline function len(end: u32): u32 {
  const p = P;
  if (p < end) {
    const x = at(p);
    if (x < 0x80 && x <= end - p - 1) {
      P = p + 1;
      return p + 1 + x;
    }
  }
  return lenLong(end);
}

/** len's multi-byte case (and its failures): up to 4 bytes (< 2^28; the input is far smaller). */
function lenLong(end: u32): u32 {
  let q = P;
  let v: u32 = 0;
  let shift: u32 = 0;
  for (let i = 0; i < 4; i++) {
    if (q >= end) break;
    const y = at(q++);
    v |= (y & 0x7f) << shift;
    if (y < 0x80) {
      if (v > end - q) break;
      P = q;
      return q + v;
    }
    shift += 7;
  }
  failed();
  return end;
}

/** An unsigned varint of at most 64 bits at P (as the TS wire reader reads it). */
function varint64(end: u32): u64 {
  let q = P;
  let v: u64 = 0;
  let shift: u64 = 0;
  for (let i = 0; i < 10; i++) {
    if (q >= end) break;
    const y = at(q++);
    if (i == 9 && y > 1) break;
    v |= (<u64>(y & 0x7f)) << shift;
    if (y < 0x80) {
      P = q;
      return v;
    }
    shift += 7;
  }
  failed();
  return 0;
}

@inline function outByte(b: u32): void {
  store<u8>(O, <u8>b);
  O += 1;
}

@inline function outI32(v: u32): void {
  store<u32>(O, bswap<u32>(v));
  O += 4;
}

@inline function outI64(v: u64): void {
  store<u64>(O, bswap<u64>(v));
  O += 8;
}

/** str of the bytes [from, to): i32(length) ‖ bytes */
function outStr(from: u32, to: u32): void {
  const n = to - from;
  outI32(n);
  memory.copy(O, from, n);
  O += n;
}

function allIn(from: u32, to: u32, k: u32): bool {
  let all = k;
  for (let i = from; i < to; i++) all &= <u32>load<u8>(CLASS + at(i));
  return all == k;
}

function isParty(from: u32, to: u32): bool {
  const n = to - from;
  return n > 0 && n <= 255 && allIn(from, to, PARTY);
}

function isDamlName(from: u32, to: u32): bool {
  const n = to - from;
  if (n == 0 || n > 1000) return false;
  return (<u32>load<u8>(CLASS + at(from)) & NAME_START) != 0 && allIn(from + 1, to, NAME_PART);
}

function isPackageName(from: u32, to: u32): bool {
  const n = to - from;
  return n > 0 && n <= 255 && allIn(from, to, PACKAGE_NAME);
}

function isPackageId(from: u32, to: u32): bool {
  if (to - from != 64) return false;
  for (let i = from; i < to; i++) {
    const c = at(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
function isUtf8(from: u32, to: u32): bool {
  let i = from;
  while (i < to) {
    const c = at(i);
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= to || (at(i + 1) & 0xc0) != 0x80) return false;
      i += 2;
      continue;
    }
    if (c >= 0xe0 && c <= 0xef) {
      if (i + 2 >= to) return false;
      const c1 = at(i + 1);
      const lo: u32 = c == 0xe0 ? 0xa0 : 0x80;
      const hi: u32 = c == 0xed ? 0x9f : 0xbf;
      if (c1 < lo || c1 > hi || (at(i + 2) & 0xc0) != 0x80) return false;
      i += 3;
      continue;
    }
    if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= to) return false;
      const c1 = at(i + 1);
      const lo: u32 = c == 0xf0 ? 0x90 : 0x80;
      const hi: u32 = c == 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi || (at(i + 2) & 0xc0) != 0x80 || (at(i + 3) & 0xc0) != 0x80) return false;
      i += 4;
      continue;
    }
    return false;
  }
  return true;
}

/** Byte order of two ranges (= code-point order for UTF-8): < 0, 0, > 0. */
function compareRanges(a: u32, aEnd: u32, b: u32, bEnd: u32): i32 {
  const an = aEnd - a;
  const bn = bEnd - b;
  const n = an < bn ? an : bn;
  for (let i: u32 = 0; i < n; i++) {
    const d = <i32>at(a + i) - <i32>at(b + i);
    if (d != 0) return d;
  }
  return <i32>an - <i32>bn;
}

/**
 * A serialized Numeric -?([1-9]\d*|0)\.\d* with scale ≤ 37 and at most 38 significant digits
 * (checkNumeric); written as lp(Java BigInteger.toByteArray of the unscaled value). Returns 1 when
 * the value is zero, 0 when not, -1 when malformed.
 */
function numeric(from: u32, to: u32): i32 {
  let i = from;
  const neg = i < to && at(i) == 45;
  if (neg) i++;
  const intStart = i;
  // checked and accumulated in one pass (wrapping past 19 digits: then recomputed below)
  let lo: u64 = 0;
  while (i < to) {
    const d = at(i) - 48;
    if (d > 9) break;
    lo = lo * 10 + <u64>d;
    i++;
  }
  const intDigits = i - intStart;
  if (intDigits == 0 || i >= to || at(i) != 46 || (intDigits > 1 && at(intStart) == 48)) return -1;
  i++;
  const fracStart = i;
  for (; i < to; i++) {
    const d = at(i) - 48;
    if (d > 9) return -1;
    lo = lo * 10 + <u64>d;
  }
  const scale = to - fracStart;
  if (scale > 37) return -1;
  lastScale = scale;
  const integral = intDigits == 1 && at(intStart) == 48 ? 0 : intDigits;
  if (integral + scale > 38) return -1;
  let hi: u64 = 0;
  if (intDigits + scale > 19) {
    // < 10^38 < 2^127: two 64-bit halves, ten digits at a time
    mHi = 0;
    mLo = 0;
    let chunk: u64 = 0;
    let mul: u64 = 1;
    for (let k = intStart; k < to; k++) {
      const c = at(k);
      if (c == 46) continue;
      chunk = chunk * 10 + <u64>(c - 48);
      mul *= 10;
      if (mul == 10000000000) {
        mulAdd(mul, chunk);
        chunk = 0;
        mul = 1;
      }
    }
    if (mul != 1) mulAdd(mul, chunk);
    hi = mHi;
    lo = mLo;
  }
  const zero = (hi | lo) == 0;
  // two's complement of -v is the complement of v - 1
  const flip: u64 = neg && !zero ? 0xffffffffffffffff : 0;
  if (flip != 0) {
    if (lo == 0) hi -= 1;
    lo -= 1;
  }
  const bits: u32 = hi != 0 ? 128 - <u32>clz<u64>(hi) : 64 - <u32>clz<u64>(lo);
  const n: u32 = (bits >> 3) + 1;
  outI32(n);
  const last = O + n - 1;
  for (let k: u32 = 0; k < n; k++) {
    const limb: u64 = k < 8 ? lo : hi;
    const byte = k < 16 ? <u32>((limb >> (<u64>(8 * (k & 7)))) & 0xff) : 0;
    store<u8>(last - k, <u8>(byte ^ <u32>(flip & 0xff)));
  }
  O += n;
  return zero ? 1 : 0;
}

/** the scale of the last numeric() (V12 checks it against the type) */
let lastScale: u32 = 0;

// numeric()'s accumulator: (mHi, mLo) = (mHi, mLo) · mul + add
let mHi: u64 = 0;
let mLo: u64 = 0;
function mulAdd(mul: u64, add: u64): void {
  // 32-bit pieces keep every product below 2^64 (mul ≤ 10^10 < 2^34, pieces < 2^32: < 2^66 — so
  // split mul too)
  const m0 = mul & 0xffffffff;
  const m1 = mul >> 32;
  const l0 = mLo & 0xffffffff;
  const l1 = mLo >> 32;
  // lo · mul = l0·m0 + (l0·m1 + l1·m0)·2^32 + l1·m1·2^64
  const p00 = l0 * m0;
  const p01 = l0 * m1;
  const p10 = l1 * m0;
  const p11 = l1 * m1;
  const mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
  let newLo = (p00 & 0xffffffff) | (mid << 32);
  let carry = (mid >> 32) + (p01 >> 32) + (p10 >> 32) + p11;
  const sum = newLo + add;
  if (sum < newLo) carry += 1;
  newLo = sum;
  mHi = mHi * mul + carry;
  mLo = newLo;
}

/** Consumes the one-byte tag `tag` at P (before `end`), or fails. */
@inline function take(tag: u32, end: u32): bool {
  if (P < end && at(P) == tag) {
    P++;
    return true;
  }
  return failed();
}

// the current layout's Value members (src/core/codec/schema.ts CURRENT_VALUE): field → wire type
// (1 unit … 16 text_map)
@inline function wireOf(f: u32): u32 {
  if (f == 5) return 1; // timestamp: sfixed64
  if (f == 2 || f == 3 || f == 4) return 0; // bool, int64 (sint64), date (int32)
  return 2;
}

const MIN_DATE: i64 = -719162;
const MAX_DATE: i64 = 2932896;
const MIN_TIMESTAMP: i64 = -62135596800000000;
const MAX_TIMESTAMP: i64 = 253402300799999999;

/** Consumes a Value's tag at P and returns its field number (1 … 16), or 0 (failed). */
@inline function valueField(end: u32, depth: u32): u32 {
  if (depth > MAX_DEPTH || P >= end || O > CONTRACT_LIMIT) return <u32>failed();
  const tag = at(P);
  // text_map (16 << 3 | LEN) is the one two-byte tag
  if (tag == 0x82 && P + 1 < end && at(P + 1) == 0x01) P++;
  else if (tag >= 0x80) return <u32>failed();
  const f = tag >> 3;
  if (f == 0 || f > 16 || (tag & 7) != wireOf(f)) return <u32>failed();
  P++;
  return f;
}

/** unit: an empty message */
@inline function readUnit(end: u32): void {
  if (len(end) != P) failed();
}

/** bool: a varint 0 or 1 */
@inline function readBool(end: u32): u32 {
  const v = varint64(end);
  if (v > 1) failed();
  return <u32>v;
}

/** int64: a zigzag varint, as two's complement */
@inline function readInt64(end: u32): u64 {
  const u = varint64(end);
  return (u >> 1) ^ (0 - (u & 1));
}

/** date: a varint in the Daml range (days since 1970-01-01) */
@inline function readDate(end: u32): i64 {
  const v = <i64>varint64(end);
  if (v < MIN_DATE || v > MAX_DATE) failed();
  return v;
}

/** timestamp: sfixed64 µs in the Daml range */
@inline function readTimestamp(end: u32): i64 {
  if (end - P < 8) return <i64>failed();
  const v = load<i64>(P);
  P += 8;
  if (v < MIN_TIMESTAMP || v > MAX_TIMESTAMP) failed();
  return v;
}

/**
 * A party (7), text (8) or contract ID (9) at P: checked (a party id; well-formed UTF-8; a V1 ID of
 * 33..127 bytes or a V2 one of 13..46, as checkContractIdBytes); returns its end, P at its start.
 */
@inline function scalarSpan(end: u32, f: u32): u32 {
  const s = len(end);
  if (FAILED) return s;
  if (f == 7) {
    if (!isParty(P, s)) failed();
  } else if (f == 8) {
    if (!isUtf8(P, s)) failed();
  } else {
    const n = s - P;
    const first = n > 0 ? at(P) : 0xff;
    if (!((first == 0 && n >= 33 && n <= 127) || (first == 1 && n >= 13 && n <= 46))) failed();
  }
  return s;
}

/** A numeric at P (lp of its unscaled value written); returns 1 when zero, 0 when not (-1: failed). */
@inline function readNumeric(end: u32): i32 {
  const s = len(end);
  if (FAILED) return -1;
  const from = P;
  P = s;
  const zero = numeric(from, s);
  if (zero < 0) failed();
  return zero;
}

/** A Variant's or an Enum's constructor at P (field 1): a Daml name; returns its end, P at its start. */
@inline function ctorSpan(end: u32): u32 {
  if (!take(0x0a, end)) return end;
  const cs = len(end);
  if (!FAILED && !isDamlName(P, cs)) failed();
  return cs;
}

/**
 * A TextMap entry's key at P (field 1 of the entry ending at `es`): well-formed UTF-8 and strictly
 * after the previous key [prevAt, prevStop) (UTF-8 byte order is code-point order; else the decoder
 * decides); returns its end, P at its start.
 */
function textKeySpan(es: u32, n: u32, prevAt: u32, prevStop: u32): u32 {
  if (!take(0x0a, es)) return es;
  const ks = len(es);
  if (!FAILED && (!isUtf8(P, ks) || (n > 0 && compareRanges(prevAt, prevStop, P, ks) >= 0))) failed();
  return ks;
}

/** Ends a nested message: P must be at its end. */
@inline function close(stop: u32): void {
  if (P != stop) failed();
}

/** A nested Value under tag (field << 3 | LEN) `tag`, at depth + 1. */
function nested(end: u32, tag: u32, depth: u32, field: i32): void {
  if (!take(tag, end)) return;
  const stop = len(end);
  if (!FAILED) value(stop, depth + 1, field);
}

/**
 * One Value in [P, end). `field` ≥ 0: the V11 record-field form fld_U(field, v) (defaults
 * skipped); -1: enc_L (V10) or enc_U (V11).
 */
function value(end: u32, depth: u32, field: i32): void {
  const f = valueField(end, depth);
  if (FAILED) return;
  // V11: the create argument must be a record
  if (depth == 1 && !LEGACY && f != 13) {
    failed();
    return;
  }
  const F = field >= 0;
  switch (f) {
    case 1: {
      readUnit(end);
      if (!F) outByte(0);
      break;
    }
    case 2: {
      const v = readBool(end);
      if (FAILED) return;
      if (!F) outByte(v);
      else if (v == 1) {
        outI32(field);
        outByte(1);
      }
      break;
    }
    case 3:
    case 4:
    case 5: {
      // int64 i64(n), date i32(days), timestamp i64(µs); the V11 field form skips a zero
      const v: u64 = f == 3 ? readInt64(end) : f == 4 ? <u64>readDate(end) : <u64>readTimestamp(end);
      if (FAILED) return;
      if (F) {
        if (v == 0) break;
        outI32(field);
      }
      if (f == 4) outI32(<u32>v);
      else outI64(v);
      break;
    }
    case 6: {
      const mark = O;
      if (F) outI32(field);
      // V11 field form: a zero numeric is a default, skipped
      if (readNumeric(end) == 1 && F) O = mark;
      break;
    }
    case 7:
    case 8:
    case 9: {
      const s = scalarSpan(end, f);
      if (FAILED) return;
      // V11 field form: an empty text is a default, skipped (a party or a contract ID never is)
      if (F) {
        if (f == 8 && s == P) break;
        outI32(field);
      }
      outStr(P, s);
      P = s;
      break;
    }
    case 10: {
      const s = len(end);
      if (FAILED) return;
      if (s == P) {
        if (!F) {
          if (LEGACY) outI32(0);
          else outByte(0);
        }
        break;
      }
      if (F) outI32(field);
      else if (LEGACY) outI32(1);
      else outByte(1);
      nested(s, 0x0a, depth, -1);
      close(s);
      break;
    }
    case 11: {
      const s = len(end);
      if (FAILED) return;
      if (F) {
        if (s == P) break;
        outI32(field);
      }
      const countAt = O;
      O += 4;
      let n: u32 = 0;
      while (P < s && !FAILED) {
        nested(s, 0x0a, depth, -1);
        n++;
      }
      store<u32>(countAt, bswap<u32>(n));
      break;
    }
    case 13: {
      const s = len(end);
      if (FAILED) return;
      if (F) outI32(field);
      const countAt = O;
      if (LEGACY) O += 4;
      let n: i32 = 0;
      // Record.Field { value } with nothing else
      while (P < s && take(0x0a, s)) {
        const fs = len(s);
        if (FAILED) return;
        nested(fs, 0x0a, depth, LEGACY ? -1 : n);
        close(fs);
        if (FAILED) return;
        n++;
      }
      if (LEGACY) store<u32>(countAt, bswap<u32>(<u32>n));
      else outByte(0xff);
      break;
    }
    case 12:
    case 16: {
      // GenMap: entries in blob order; TextMap: keys strictly ascending
      const s = len(end);
      if (FAILED) return;
      if (F && s == P) break;
      // V11 quirk (§6.3): a non-empty map field is written without its field index
      const countAt = O;
      O += 4;
      let n: u32 = 0;
      let prevAt: u32 = 0;
      let prevStop: u32 = 0;
      while (P < s && take(0x0a, s)) {
        const es = len(s);
        if (FAILED) return;
        if (f == 16) {
          const ks = textKeySpan(es, n, prevAt, prevStop);
          if (FAILED) return;
          prevAt = P;
          prevStop = ks;
          outStr(P, ks);
          P = ks;
          nested(es, 0x12, depth, -1);
        } else {
          nested(es, 0x0a, depth, -1);
          if (FAILED) return;
          nested(es, 0x12, depth, -1);
        }
        close(es);
        if (FAILED) return;
        n++;
      }
      store<u32>(countAt, bswap<u32>(n));
      break;
    }
    case 14: {
      // Variant: constructor first, then the value, nothing else
      const s = len(end);
      if (FAILED) return;
      const cs = ctorSpan(s);
      if (FAILED) return;
      if (F) outI32(field);
      outStr(P, cs);
      P = cs;
      nested(s, 0x12, depth, -1);
      close(s);
      break;
    }
    case 15: {
      // Enum: the constructor only
      const s = len(end);
      if (FAILED) return;
      const cs = ctorSpan(s);
      if (FAILED || cs != s) {
        failed();
        return;
      }
      if (F) outI32(field);
      outStr(P, cs);
      P = cs;
      break;
    }
    default:
      failed();
      return;
  }
  close(end);
}

// ---------------------------------------------------------------------------------------------
// V12 (TypedNormalForm, docs/protocol/contract-id.md §6.4, §6.5 enc_T): typed from
// the environment like the reference's typed encoder. The types come as nodes the caller lays out in
// TYPES (../type-layout.ts), one per type instantiation, all type variables resolved:
//   [kind] for unit 1, bool 2, int64 3, date 4, timestamp 5, party 7, text 8, contract id 9;
//   [6, scale] numeric; [10, child] optional; [11, child] list; [16, child] text map;
//   [12, key, value] gen map;
//   [13, headAt, headLength, n, (partAt, partLength, child, isOptional) × n] record;
//   [14, headAt, headLength, n, (partAt, partLength, child, 0) × n] variant;
//   [15, 0, headLength, n, (partAt, partLength, 0, 0) × n] enum (its parts start with the head).
// A node's address is its id; byte pieces (heads, parts) are in TYPES too.

@inline function word(node: u32, i: u32): u32 {
  return load<u32>(node + 4 * i);
}

/** The i-th field or constructor entry of a record, variant or enum node */
@inline function entry(node: u32, i: u32): u32 {
  return node + 16 + 16 * i;
}

/** Writes an entry's byte piece (a label, or a constructor with its rank). */
@inline function outPart(e: u32): void {
  outPiece(load<u32>(e), load<u32>(e + 4));
}

/** Writes a type's byte piece, or fails when it would pass CONTRACT_LIMIT. */
function outPiece(from: u32, n: u32): void {
  if (O > CONTRACT_LIMIT || n > CONTRACT_LIMIT - O) {
    failed();
    return;
  }
  memory.copy(O, from, n);
  O += n;
}

/** The enc_T tag of the scalar kinds 7 party, 8 text, 9 contract ID */
@inline function scalarTag(f: u32): u32 {
  return f == 7 ? 0x04 : f == 8 ? 0x02 : 0x0f;
}

/** The V12 template type's root node (set by the caller's resolveTemplate) */
let typedRoot: u32 = 0;

/** A nested Value under tag (field << 3 | LEN) `tag`, typed `node`, at depth + 1; true when None. */
function typedNested(end: u32, tag: u32, node: u32, depth: u32): bool {
  if (!take(tag, end)) return false;
  const stop = len(end);
  return FAILED ? false : typedValue(stop, node, depth + 1);
}

/** One Value in [P, end) of type `node`; returns true when it is an empty optional. */
function typedValue(end: u32, node: u32, depth: u32): bool {
  const f = valueField(end, depth);
  if (FAILED || word(node, 0) != f) return failed();
  let none = false;
  switch (f) {
    case 1: {
      readUnit(end);
      outByte(0x06);
      break;
    }
    case 2: {
      const v = readBool(end);
      outByte(0x05);
      outByte(v);
      break;
    }
    case 3: {
      const n = readInt64(end);
      outByte(0x00);
      outI64(n);
      break;
    }
    case 4: {
      const v = readDate(end);
      outByte(0x07);
      outI32(<u32>v);
      break;
    }
    case 5: {
      const v = readTimestamp(end);
      outByte(0x03);
      outI64(<u64>v);
      break;
    }
    case 6: {
      outByte(0x01);
      // the scale must be the type's
      if (readNumeric(end) >= 0 && lastScale != word(node, 1)) failed();
      break;
    }
    case 7:
    case 8:
    case 9: {
      const s = scalarSpan(end, f);
      if (FAILED) return false;
      outByte(scalarTag(f));
      outStr(P, s);
      P = s;
      break;
    }
    case 10: {
      const s = len(end);
      if (FAILED) return false;
      outByte(0x0c);
      if (s == P) {
        outByte(0);
        none = true;
        break;
      }
      outByte(1);
      typedNested(s, 0x0a, word(node, 1), depth);
      close(s);
      break;
    }
    case 11: {
      const s = len(end);
      if (FAILED) return false;
      outByte(0x0b);
      const countAt = O;
      O += 4;
      let n: u32 = 0;
      const child = word(node, 1);
      while (P < s && !FAILED) {
        typedNested(s, 0x0a, child, depth);
        n++;
      }
      store<u32>(countAt, bswap<u32>(n));
      break;
    }
    case 13: {
      const s = len(end);
      if (!FAILED) typedRecord(s, node, depth);
      break;
    }
    case 14: {
      // constructor first, then the value, nothing else
      const s = len(end);
      if (FAILED) return false;
      const cs = ctorSpan(s);
      if (FAILED) return false;
      const rank = rankOf(node, P, cs, 0);
      if (rank < 0) return failed();
      P = cs;
      outPiece(word(node, 1), word(node, 2));
      const e = entry(node, <u32>rank);
      outPart(e);
      typedNested(s, 0x12, load<u32>(e + 8), depth);
      close(s);
      break;
    }
    case 15: {
      const s = len(end);
      if (FAILED) return false;
      const cs = ctorSpan(s);
      if (FAILED || cs != s) return failed();
      const rank = rankOf(node, P, cs, word(node, 2));
      if (rank < 0) return failed();
      P = cs;
      outPart(entry(node, <u32>rank));
      break;
    }
    case 12:
    case 16: {
      const s = len(end);
      if (FAILED) return false;
      outByte(f == 16 ? 0x0d : 0x0e);
      const countAt = O;
      O += 4;
      let n: u32 = 0;
      let prevAt: u32 = 0;
      let prevStop: u32 = 0;
      while (P < s && take(0x0a, s)) {
        const es = len(s);
        if (FAILED) return false;
        if (f == 16) {
          const ks = textKeySpan(es, n, prevAt, prevStop);
          if (FAILED) return false;
          prevAt = P;
          prevStop = ks;
          outStr(P, ks);
          P = ks;
          typedNested(es, 0x12, word(node, 1), depth);
        } else {
          typedNested(es, 0x0a, word(node, 1), depth);
          if (FAILED) return false;
          typedNested(es, 0x12, word(node, 2), depth);
        }
        close(es);
        if (FAILED) return false;
        n++;
      }
      store<u32>(countAt, bswap<u32>(n));
      break;
    }
    default:
      return failed();
  }
  close(end);
  return none;
}

/** A record's fields in [P, stop): head ‖ (label ‖ enc_T(v))… ‖ ff, trailing Nones dropped. */
function typedRecord(stop: u32, node: u32, depth: u32): void {
  const nFields = word(node, 3);
  outPiece(word(node, 1), word(node, 2));
  let keep = O;
  let n: u32 = 0;
  // Record.Field { value } with nothing else, no more fields than the type has
  while (P < stop && take(0x0a, stop)) {
    if (n >= nFields) {
      failed();
      return;
    }
    const fs = len(stop);
    if (FAILED) return;
    const e = entry(node, n);
    outPart(e);
    const none = typedNested(fs, 0x0a, load<u32>(e + 8), depth);
    close(fs);
    if (FAILED) return;
    if (!none) keep = O;
    n++;
  }
  if (FAILED) return;
  // fields left out must be optional
  for (let i = n; i < nFields; i++)
    if (load<u32>(entry(node, i) + 12) == 0) {
      failed();
      return;
    }
  O = keep;
  outByte(0xff);
}

/** The rank of the constructor named [from, to): its part is [skip] ‖ i32(length) ‖ name ‖ i32(rank). */
function rankOf(node: u32, from: u32, to: u32, skip: u32): i32 {
  const n = word(node, 3);
  const length = to - from;
  for (let i: u32 = 0; i < n; i++) {
    const e = entry(node, i);
    if (load<u32>(e + 4) != skip + 8 + length) continue;
    if (memory.compare(load<u32>(e) + skip + 4, from, length) == 0) return <i32>i;
  }
  return -1;
}

/**
 * Identifier { package_id; module_name+; name+ } in that order → identifier(...) (V10/V11), or its
 * qualified name only (V12, `withPackageId` false).
 */
function identifier(stop: u32, withPackageId: bool): bool {
  if (P >= stop || at(P) != 0x0a) return false;
  P++;
  const ps = len(stop);
  if (FAILED || !isPackageId(P, ps)) return false;
  if (withPackageId) outStr(P, ps);
  P = ps;
  for (let field: u32 = 2; field <= 3; field++) {
    const countAt = O;
    O += 4;
    let n: u32 = 0;
    while (P < stop && at(P) == ((field << 3) | 2)) {
      P++;
      const s = len(stop);
      if (FAILED || !isDamlName(P, s)) return false;
      outStr(P, s);
      P = s;
      n++;
    }
    if (n == 0) return false;
    store<u32>(countAt, bswap<u32>(n));
  }
  return P == stop;
}

/** The version string [from, to) is "2.1", "2" or "dev". */
function isCurrentVersion(from: u32, to: u32): bool {
  const n = to - from;
  if (n == 1) return at(from) == 0x32;
  if (n != 3) return false;
  const a = at(from);
  const b = at(from + 1);
  const c = at(from + 2);
  return (a == 0x32 && b == 0x2e && c == 0x31) || (a == 0x64 && b == 0x65 && c == 0x76);
}

@inline function setSpan(i: u32, v: i32): void {
  store<i32>(SPANS + 4 * i, v);
}

/**
 * V12: the caller's type environment resolves the template (package name [nameAt, nameStop),
 * Identifier message [idAt, idStop), offsets into the blob) and lays out its type; returns the root
 * record node, or 0 when it cannot (then the walk declines).
 */
@external("env", "resolveTemplate")
declare function resolveTemplate(nameAt: u32, nameStop: u32, idAt: u32, idStop: u32): u32;

/** walkContract's modes */
const MODE_V11: u32 = 0;
const MODE_V10: u32 = 1;
const MODE_V12: u32 = 2;

/**
 * Walks the `n`-byte blob at INPUT (`mode`: 1 V10, 0 V11, 2 V12) and writes the contract-hash
 * preimage at CONTRACT; returns its length, or -1 when the blob is not the canonical shape this
 * walk answers (then ask the TS walk). Spans (offsets into the blob): 0 contract ID, 1/2 package
 * name, 3/4 template id, 5/6 create argument, 7/8 created_at µs as high/low halves.
 */
export function walkContract(n: u32, mode: u32): i32 {
  if (n > MAX_INPUT || mode > MODE_V12) return -1;
  const legacy = mode == MODE_V10;
  const typed = mode == MODE_V12;
  P = INPUT;
  O = CONTRACT;
  LEGACY = legacy;
  FAILED = false;
  nSigs = 0;
  nOthers = 0;
  typedRoot = 0;
  const end = INPUT + n;
  // Versioned { version = 1; payload = 2 }, nothing else
  if (P >= end || at(P) != 0x0a) return -1;
  P++;
  const vs = len(end);
  if (FAILED || !isCurrentVersion(P, vs)) return -1;
  P = vs;
  if (P >= end || at(P) != 0x12) return -1;
  P++;
  const payloadEnd = len(end);
  if (FAILED || payloadEnd != end) return -1;

  outByte(typed ? versionTyped : legacy ? versionLegacy : versionUpgradeFriendly);
  outByte(purposeContract);
  let last: u32 = 0;
  let idAt: i32 = -1;
  let nameAt: u32 = 0;
  let nameStop: u32 = 0;
  let nameDone = false;
  let templateDone = false;
  let argDone = false;
  let haveSalt = false;
  let microsLo: u32 = 0;
  let microsHi: i32 = 0;
  while (P < end) {
    const tag = at(P);
    if (tag >= 0x80) return -1;
    P++;
    const f = tag >> 3;
    if (f < last || (f == last && tag != 0x2a && tag != 0x32)) return -1;
    last = f;
    if (tag == 0x39) {
      // created_at: sfixed64
      if (end - P < 8) return -1;
      microsLo = load<u32>(P);
      microsHi = load<i32>(P + 4);
      P += 8;
      continue;
    }
    const stop = len(end);
    if (FAILED) return -1;
    const from = P;
    switch (tag) {
      case 0x0a: {
        // the embedded contract ID (the caller checks that it spells the published one)
        if (stop - from != 69) return -1;
        idAt = <i32>(from - INPUT);
        break;
      }
      case 0x12: {
        if (!isPackageName(from, stop)) return -1;
        outStr(from, stop);
        nameDone = true;
        nameAt = from;
        nameStop = stop;
        break;
      }
      case 0x1a: {
        // the package name comes first in the preimage (and in the field order)
        if (!nameDone || !identifier(stop, !typed)) return -1;
        if (typed) {
          typedRoot = resolveTemplate(nameAt - INPUT, nameStop - INPUT, from - INPUT, stop - INPUT);
          if (typedRoot == 0) return -1;
        }
        templateDone = true;
        setSpan(3, <i32>(from - INPUT));
        setSpan(4, <i32>(stop - INPUT));
        break;
      }
      case 0x22: {
        if (!templateDone) return -1;
        if (typed) {
          // the create argument: a record Value of the template's type
          if (P >= stop || at(P) != 0x6a) return -1;
          P++;
          const rs = len(stop);
          if (FAILED) return -1;
          typedRecord(rs, typedRoot, 1);
          if (FAILED || P != stop) return -1;
        } else {
          value(stop, 1, -1);
          if (FAILED) return -1;
        }
        argDone = true;
        setSpan(5, <i32>(from - INPUT));
        setSpan(6, <i32>(stop - INPUT));
        break;
      }
      case 0x2a:
      case 0x32: {
        if (!isParty(from, stop)) return -1;
        const own = tag == 0x2a;
        const list = own ? SIGS : OTHERS;
        const k = own ? nSigs : nOthers;
        if (k == MAX_PARTIES) return -1;
        // strictly ascending
        if (k > 0 && compareRanges(load<u32>(list + 8 * (k - 1)), load<u32>(list + 8 * (k - 1) + 4), from, stop) >= 0)
          return -1;
        // a stakeholder must not be a signatory
        if (!own)
          for (let i: u32 = 0; i < nSigs; i++)
            if (compareRanges(load<u32>(SIGS + 8 * i), load<u32>(SIGS + 8 * i + 4), from, stop) == 0) return -1;
        store<u32>(list + 8 * k, from);
        store<u32>(list + 8 * k + 4, stop);
        if (own) nSigs++;
        else nOthers++;
        break;
      }
      case 0x42: {
        // 0a 26 0a 24 08 01 12 20 <salt 32> 10 1e: UntypedVersionedMessage v30 { Salt { HMAC-SHA256, salt } }
        if (stop - from != 42) return -1;
        if (load<u64>(from) != 0x20120108240a260a) return -1;
        if (at(from + 40) != 0x10 || at(from + 41) != 0x1e) return -1;
        saltAt = from + 8;
        haveSalt = true;
        break;
      }
      default:
        return -1;
    }
    P = stop;
  }
  if (idAt < 0 || !argDone || nSigs == 0 || !haveSalt) return -1;
  // created_at µs → (epochSecond, nano) with floor semantics; |µs| < 2^53 as the TS walk requires
  if (microsHi < -0x200000 || microsHi >= 0x200000) return -1;
  const micros: i64 = (<i64>microsHi << 32) | <i64>microsLo;
  let secs: i64 = micros / 1000000;
  if (secs * 1000000 > micros) secs -= 1;
  secsHi = <i32>(secs >> 32);
  secsLo = <i32>secs;
  nanos = <i32>((micros - secs * 1000000) * 1000);
  setSpan(0, idAt);
  setSpan(1, <i32>(nameAt - INPUT));
  setSpan(2, <i32>(nameStop - INPUT));
  setSpan(7, microsHi);
  setSpan(8, <i32>microsLo);
  return <i32>(O - CONTRACT);
}

/** seq(parties) as lp(i32(n) ‖ str(p)…) */
function parties(list: u32, n: u32): void {
  const lenAt = O;
  O += 4;
  const start = O;
  outI32(n);
  for (let i: u32 = 0; i < n; i++) outStr(load<u32>(list + 8 * i), load<u32>(list + 8 * i + 4));
  store<u32>(lenAt, bswap<u32>(O - start));
}

/**
 * After walkContract: writes the unicum preimage at UNICUM up to the contract hash, and returns
 * where the caller must put the 32-byte contract hash (the preimage ends right after it).
 */
export function writeUnicum(): u32 {
  O = UNICUM;
  outI32(purposeUnicum);
  memory.copy(O, saltAt, 32);
  O += 32;
  outI32(<u32>secsHi);
  outI32(<u32>secsLo);
  outI32(<u32>nanos);
  parties(SIGS, nSigs);
  parties(OTHERS, nOthers);
  // no key, no maintainers
  outByte(0);
  outI32(1);
  outByte(0);
  return O;
}
