/**
 * A growable byte builder for hash preimages: the LF `Hash.Builder` primitives and Canton's
 * `DeterministicEncoding` (docs/protocol/contract-id.md §5 notation, §6 "Primitives").
 *
 * - `i32`/`i64`: big-endian two's complement;
 * - `str(s)` = i32(len(utf8(s))) ‖ utf8(s); `lp(b)` = i32(len(b)) ‖ b;
 * - `numeric(n)` = lp(Java BigInteger.toByteArray of the unscaled value) — the scale is not hashed;
 * - `dottedName(segs)` = i32(#segs) ‖ str(seg)…; `qualifiedName` = dotted(module) ‖ dotted(entity);
 *   `identifier` = str(packageId) ‖ qualifiedName.
 *
 * One builder is reused across hashes (`reset()`); its buffer only grows. `bytes()` returns a view
 * valid until the next write.
 */

import { formatGot } from '../../errors/base.js';
import { HashError } from '../../errors/hash.js';

const encoder = new TextEncoder();

export class HashBuilder {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  /** the last source of rawRange and a DataView of it */
  private src: Uint8Array | null = null;
  private srcView: DataView | null = null;

  constructor(initialCapacity = 4096) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Empties the builder, keeping its buffer. */
  reset(): this {
    this.pos = 0;
    return this;
  }

  get length(): number {
    return this.pos;
  }

  /** A view of the bytes written so far (valid until the next write or reset). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): this {
    this.ensure(1);
    this.buf[this.pos++] = b;
    return this;
  }

  bool(b: boolean): this {
    return this.byte(b ? 1 : 0);
  }

  i32(n: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, n);
    this.pos += 4;
    return this;
  }

  i64(n: bigint): this {
    this.ensure(8);
    // setBigInt64 already reduces modulo 2^64 (ToBigInt64), as BigInt.asIntN(64, n) would
    this.view.setBigInt64(this.pos, n);
    this.pos += 8;
    return this;
  }

  /** Drops the bytes written after the first `n` (n ≤ length). */
  truncate(n: number): this {
    if (n < this.pos) this.pos = n;
    return this;
  }

  /** Overwrites 4 bytes at absolute offset `at` with i32(n) (for length slots written afterwards). */
  patchI32(at: number, n: number): this {
    this.view.setInt32(at, n);
    return this;
  }

  /** Raw bytes, no length prefix. */
  raw(b: Uint8Array): this {
    const n = b.length;
    this.ensure(n);
    if (n < 8) {
      const buf = this.buf;
      let p = this.pos;
      for (let i = 0; i < n; i++) buf[p++] = b[i] as number;
    } else this.buf.set(b, this.pos);
    this.pos += n;
    return this;
  }

  /**
   * Raw bytes `src[start, end)`, no length prefix: below 160 bytes copied in 32-bit words (≈ 2×
   * a byte loop or subarray + set on party-id-sized ranges, measured), above by subarray + set.
   */
  rawRange(src: Uint8Array, start: number, end: number): this {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    let i = start;
    if (n >= 160) {
      buf.set(src.subarray(start, end), p);
      this.pos += n;
      return this;
    }
    if (n >= 8) {
      // one DataView per source array (the one pass copies many ranges of the same blob)
      let sv = this.srcView;
      if (this.src !== src || sv === null) {
        sv = new DataView(src.buffer, src.byteOffset, src.length);
        this.src = src;
        this.srcView = sv;
      }
      const view = this.view;
      for (const stop = end - 3; i < stop; i += 4, p += 4) view.setInt32(p, sv.getInt32(i));
    }
    for (; i < end; i++) buf[p++] = src[i] as number;
    this.pos += n;
    return this;
  }

  /** i32(end − start) ‖ src[start, end): `str` of a string whose UTF-8 bytes are that range. */
  strRange(src: Uint8Array, start: number, end: number): this {
    this.i32(end - start);
    return this.rawRange(src, start, end);
  }

  /** i64 from its high and low 32-bit halves (big-endian), without a bigint. */
  i64HiLo(hi: number, lo: number): this {
    this.ensure(8);
    this.view.setInt32(this.pos, hi | 0);
    this.view.setInt32(this.pos + 4, lo | 0);
    this.pos += 8;
    return this;
  }

  /** The bytes of a binary string (each char code < 256), e.g. a `Sha256Binary` digest. */
  binary(s: string): this {
    const n = s.length;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
    return this;
  }

  /**
   * `numeric` of a valid serialized Numeric in `src[start, end)` (checked: at most 38 digits, so
   * |unscaled| < 2^127): lp(Java BigInteger.toByteArray of the unscaled value), computed in four
   * 32-bit limbs — no string, no bigint. Returns whether the unscaled value is zero.
   */
  numericRange(src: Uint8Array, start: number, end: number): boolean {
    let i = start;
    const neg = src[i] === 45;
    if (neg) i++;
    // up to 15 digits (and the one '.') the value is exact in a double
    if (end - i - 1 <= 15) {
      let v = 0;
      for (; i < end; i++) {
        const c = src[i] as number;
        if (c !== 46) v = v * 10 + (c - 48);
      }
      return this.smallNumeric(v, neg);
    }
    // longer ones are folded into four 32-bit limbs 6 digits at a time (limb · 10^6 + carry
    // stays below 2^53)
    const L = LIMBS;
    L[0] = 0;
    L[1] = 0;
    L[2] = 0;
    L[3] = 0;
    let v = 0;
    let chunk = 1;
    for (; i < end; i++) {
      const c = src[i] as number;
      if (c === 46) continue;
      v = v * 10 + (c - 48);
      chunk *= 10;
      if (chunk === 1e6) {
        foldLimbs(L, chunk, v);
        v = 0;
        chunk = 1;
      }
    }
    foldLimbs(L, chunk, v);
    const zero = ((L[0] as number) | (L[1] as number) | (L[2] as number) | (L[3] as number)) === 0;
    // two's complement of -v is the complement of v - 1
    const flip = neg && !zero ? 0xff : 0;
    if (flip !== 0) {
      for (let k = 0; k < 4; k++) {
        const was = L[k] as number;
        L[k] = was - 1;
        if (was !== 0) break;
      }
    }
    let top = 3;
    while (top > 0 && L[top] === 0) top--;
    const bits = 32 * top + 32 - Math.clz32(L[top] as number);
    const len = (bits >> 3) + 1;
    this.i32(len);
    this.ensure(len);
    const buf = this.buf;
    const last = this.pos + len - 1;
    for (let k = 0; k < len; k++) {
      const limb = k < 16 ? (L[k >> 2] as number) : 0;
      buf[last - k] = ((limb >>> (8 * (k & 3))) & 0xff) ^ flip;
    }
    this.pos += len;
    return zero;
  }

  /**
   * numericRange's common case: the unscaled magnitude `v` < 10^15 (< 2^50, exact), written as
   * lp(toByteArray) from its two 32-bit halves — no limbs, at most 7 bytes.
   */
  private smallNumeric(v: number, neg: boolean): boolean {
    const zero = v === 0;
    const flip = neg && !zero ? 0xff : 0;
    // two's complement of -v is the complement of v - 1
    const m = flip !== 0 ? v - 1 : v;
    const hi = Math.floor(m / 4294967296);
    const lo = (m - hi * 4294967296) >>> 0;
    const bits = hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(lo);
    const len = (bits >> 3) + 1;
    this.ensure(4 + len);
    const buf = this.buf;
    let p = this.pos;
    buf[p] = 0;
    buf[p + 1] = 0;
    buf[p + 2] = 0;
    buf[p + 3] = len;
    p += 4;
    const last = p + len - 1;
    for (let k = 0; k < len; k++) {
      const byte = k < 4 ? lo >>> (8 * k) : hi >>> (8 * (k - 4));
      buf[last - k] = (byte & 0xff) ^ flip;
    }
    this.pos = p + len;
    return zero;
  }

  /** lp(b) = i32(len) ‖ b */
  lp(b: Uint8Array): this {
    this.i32(b.length);
    return this.raw(b);
  }

  /** str(s) = i32(len(utf8)) ‖ utf8(s); long strings (party ids, package ids) come from a bounded cache. */
  str(s: string): this {
    const n = s.length;
    if (n >= STR_CACHE_MIN) {
      const hit = strCache.get(s);
      if (hit !== undefined) return this.raw(hit);
      const start = this.pos;
      this.strUncached(s, n);
      if (strCache.size >= STR_CACHE_MAX) strCache.clear();
      strCache.set(s, this.buf.slice(start, this.pos));
      return this;
    }
    return this.strUncached(s, n);
  }

  private strUncached(s: string, n: number): this {
    // Worst case 3 bytes per UTF-16 code unit; length slot written afterwards.
    this.ensure(4 + n * 3);
    const start = this.pos + 4;
    let p = start;
    const buf = this.buf;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      buf[p++] = c;
    }
    if (i < n) {
      const r = encoder.encodeInto(s.slice(i), buf.subarray(p));
      p += r.written;
    }
    this.view.setInt32(this.pos, p - start);
    this.pos = p;
    return this;
  }

  /** LF addNumeric: lp(minimal big-endian two's complement of the unscaled value). */
  numeric(n: string): this {
    let lp = numericLpCache.get(n);
    if (lp === undefined) {
      const bytes = numericUnscaledBytes(n);
      lp = new Uint8Array(4 + bytes.length);
      new DataView(lp.buffer).setInt32(0, bytes.length);
      lp.set(bytes, 4);
      if (numericLpCache.size >= NUMERIC_CACHE_MAX) numericLpCache.clear();
      numericLpCache.set(n, lp);
    }
    return this.raw(lp);
  }

  dottedName(segments: readonly string[]): this {
    this.i32(segments.length);
    for (const s of segments) this.str(s);
    return this;
  }

  qualifiedName(module: readonly string[], entity: readonly string[]): this {
    return this.dottedName(module).dottedName(entity);
  }

  identifier(packageId: string, module: readonly string[], entity: readonly string[]): this {
    return this.str(packageId).qualifiedName(module, entity);
  }
}

/** numericRange's scratch: the unscaled magnitude in 32-bit limbs, least significant first. */
const LIMBS = new Uint32Array(4);

/** L = L · mul + add over the four limbs (mul ≤ 10^6, add < mul: every step exact in a double). */
function foldLimbs(L: Uint32Array, mul: number, add: number): void {
  let carry = add;
  for (let k = 0; k < 4; k++) {
    const t = (L[k] as number) * mul + carry;
    // t < 2^53: dividing by 2^32 and flooring is exact (and cheaper than %)
    carry = Math.floor(t / 4294967296);
    L[k] = t - carry * 4294967296;
  }
}

/** Encoded str(s) (length prefix included) of long strings; bounded, cleared when full. */
const STR_CACHE_MIN = 24;
const STR_CACHE_MAX = 4096;
const strCache = new Map<string, Uint8Array>();

const NUMERIC_RE = /^-?(?:0|[1-9]\d*)\.\d*$/;
const numericCache = new Map<string, Uint8Array>();
/** numeric → its whole lp(...) encoding (one copy per numeric instead of two writes) */
const numericLpCache = new Map<string, Uint8Array>();
const NUMERIC_CACHE_MAX = 4096;

/**
 * Java `BigInteger.toByteArray()` of the unscaled value of a serialized Daml Numeric
 * (`-?([1-9]\d*|0)\.\d*`; unscaled = the digits with the `.` removed, so trailing zeros count).
 * Returns a shared, cached array: callers must not mutate it.
 */
export function numericUnscaledBytes(n: string): Uint8Array {
  const hit = numericCache.get(n);
  if (hit !== undefined) return hit;
  if (!NUMERIC_RE.test(n) || n.length > 80) {
    throw new HashError('NUMERIC_MALFORMED', `"numeric" expected -?digits.digits, got ${formatGot(n)}`);
  }
  const dot = n.indexOf('.');
  const unscaled = BigInt(n.slice(0, dot) + n.slice(dot + 1));
  const out = bigIntToJavaBytes(unscaled);
  if (numericCache.size >= NUMERIC_CACHE_MAX) numericCache.clear();
  numericCache.set(n, out);
  return out;
}

/** Minimal big-endian two's complement (Java BigInteger.toByteArray): bitLength/8 + 1 bytes. */
function bigIntToJavaBytes(v: bigint): Uint8Array {
  // Java bitLength excludes the sign bit: for negative v it is the bit length of ~v (= -v - 1).
  const mag = v < 0n ? -v - 1n : v;
  const bitLength = mag === 0n ? 0 : mag.toString(2).length;
  const len = Math.floor(bitLength / 8) + 1;
  const out = new Uint8Array(len);
  let x = BigInt.asUintN(len * 8, v);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}
