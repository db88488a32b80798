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
 * valid until the next write. The encodings of long strings and of numerics are remembered in a
 * `HashCaches` the builder is given (shared by the builders of one `HashContext`, ./hash-context.ts)
 * or owns; nothing is kept at module level.
 */

import { formatGot } from '../../errors/base.js';
import { HashError } from '../../errors/hash.js';

const encoder = new TextEncoder();

/** Encoded str(s) (length prefix included) of long strings; bounded, cleared when full. */
const STR_CACHE_MIN = 24;
const STR_CACHE_MAX = 4096;
const NUMERIC_RE = /^-?(?:0|[1-9]\d*)\.\d*$/;
const NUMERIC_CACHE_MAX = 4096;

/** What builders remember between hashes: bounded maps, each cleared when full. */
export class HashCaches {
  /** long string → str(s) */
  readonly str = new Map<string, Uint8Array>();
  /** numeric → Java BigInteger.toByteArray of its unscaled value */
  readonly numeric = new Map<string, Uint8Array>();
  /** numeric → its whole lp(...) encoding (one copy per numeric instead of two writes) */
  readonly numericLp = new Map<string, Uint8Array>();
}

/** The growable preimage builder (see the file comment). */
export class HashBuilder {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  /** the caches this builder reads and fills */
  readonly caches: HashCaches;

  constructor(initialCapacity = 4096, caches: HashCaches = new HashCaches()) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
    this.caches = caches;
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

  /** lp(b) = i32(len) ‖ b */
  lp(b: Uint8Array): this {
    this.i32(b.length);
    return this.raw(b);
  }

  /** str(s) = i32(len(utf8)) ‖ utf8(s); long strings (party ids, package ids) come from a bounded cache. */
  str(s: string): this {
    const n = s.length;
    if (n >= STR_CACHE_MIN) {
      const strCache = this.caches.str;
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
    const numericLpCache = this.caches.numericLp;
    let lp = numericLpCache.get(n);
    if (lp === undefined) {
      const bytes = numericUnscaledBytes(n, this.caches);
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

/**
 * Java `BigInteger.toByteArray()` of the unscaled value of a serialized Daml Numeric
 * (`-?([1-9]\d*|0)\.\d*`; unscaled = the digits with the `.` removed, so trailing zeros count).
 * With `caches` the array is shared and remembered there: callers must not mutate it.
 */
export function numericUnscaledBytes(n: string, caches?: HashCaches): Uint8Array {
  const numericCache = caches?.numeric;
  const hit = numericCache?.get(n);
  if (hit !== undefined) return hit;
  if (!NUMERIC_RE.test(n) || n.length > 80) {
    throw new HashError('NUMERIC_MALFORMED', `"numeric" expected -?digits.digits, got ${formatGot(n)}`);
  }
  const dot = n.indexOf('.');
  const unscaled = BigInt(n.slice(0, dot) + n.slice(dot + 1));
  const out = bigIntToJavaBytes(unscaled);
  if (numericCache === undefined) return out;
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
