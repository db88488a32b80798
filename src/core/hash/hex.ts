/**
 * Small lower-case hex helpers for the hash module (no Buffer: src/core is portable). Scratch
 * buffers belong to the caller (`HexScratch`, held by a `HashContext`); without one the helpers
 * allocate what they need.
 */

import { allocBytes, type BytePool } from '../codec/byte-pool.js';

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** ASCII codes of the two hex digits of each byte, packed as (hi << 8) | lo. */
const HEX_PAIR = Uint16Array.from({ length: 256 }, (_, i) => {
  const s = HEX[i] as string;
  return (s.charCodeAt(0) << 8) | s.charCodeAt(1);
});
const ascii = new TextDecoder('latin1');

/** The hex helpers' scratch: one per thread of work (it is overwritten by every call). */
export class HexScratch {
  /** the output digits of bytesToHex/binaryToHex (grows) */
  out = new Uint8Array(256);
  /** hexEqualsRange's copy of the string's bytes (a contract ID is 138 characters) */
  readonly text = new Uint8Array(256);
}

function outBuffer(scratch: HexScratch | null, n: number): Uint8Array {
  if (scratch === null) return new Uint8Array(2 * n);
  if (scratch.out.length < 2 * n) scratch.out = new Uint8Array(4 * n);
  return scratch.out;
}

/** Lower-case hex of `b`. */
export function bytesToHex(b: Uint8Array, scratch: HexScratch | null = null): string {
  const n = b.length;
  if (n < 16) {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[b[i] as number];
    return s;
  }
  const out = outBuffer(scratch, n);
  for (let i = 0; i < n; i++) {
    const p = HEX_PAIR[b[i] as number] as number;
    out[2 * i] = p >> 8;
    out[2 * i + 1] = p & 0xff;
  }
  return ascii.decode(out.subarray(0, 2 * n));
}

/** Value of each lower-case hex digit by char code; 0xff for anything else. */
const NIBBLE: Readonly<Uint8Array> = (() => {
  const t = new Uint8Array(256).fill(0xff);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[97 + i] = 10 + i;
  return t;
})();

/** Bytes of a lower-case hex string of even length (from `pool` when given); null when it is not one. */
export function lowerHexToBytes(s: string, pool: BytePool | null = null): Uint8Array | null {
  if (s.length % 2 !== 0) return null;
  const out = allocBytes(s.length / 2, pool);
  let bad = 0;
  for (let i = 0, j = 0; i < out.length; i++, j += 2) {
    const hi = NIBBLE[s.charCodeAt(j)] ?? 0xff;
    const lo = NIBBLE[s.charCodeAt(j + 1)] ?? 0xff;
    bad |= hi | lo;
    out[i] = (hi << 4) | lo;
  }
  return bad > 0x0f ? null : out;
}

/** True when `s` (from `offset`) is exactly the lower-case hex of `b` (no allocation). */
export function hexEqualsBytes(s: string, offset: number, b: Uint8Array): boolean {
  const n = b.length;
  if (s.length - offset !== 2 * n) return false;
  let d = 0;
  for (let i = 0, j = offset; i < n; i++, j += 2) {
    d |= (HEX_PAIR[b[i] as number] as number) ^ ((s.charCodeAt(j) << 8) | s.charCodeAt(j + 1));
  }
  return d === 0;
}

/** Constant-length byte equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

const encoder = new TextEncoder();

/**
 * True when `s` (all of it) is exactly the lower-case hex of `buf[start, start + s.length / 2)`.
 * With a scratch and up to 256 characters the string is first copied out natively (`encodeInto`: ~0.2 µs instead of
 * ~0.3 µs of `charCodeAt`s for a contract ID on the reference machine); a character that is not
 * ASCII takes more than one byte, and such a string is no hex.
 */
export function hexEqualsRange(
  s: string,
  buf: Uint8Array,
  start: number,
  scratch: HexScratch | null = null,
): boolean {
  const n = s.length >> 1;
  if ((s.length & 1) !== 0 || start + n > buf.length) return false;
  let d = 0;
  if (scratch !== null && s.length <= scratch.text.length) {
    const h = scratch.text;
    const r = encoder.encodeInto(s, h);
    if (r.read !== s.length || r.written !== s.length) return false;
    for (let i = 0, j = 0; i < n; i++, j += 2)
      d |= (HEX_PAIR[buf[start + i] as number] as number) ^ (((h[j] as number) << 8) | (h[j + 1] as number));
    return d === 0;
  }
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    d |= (HEX_PAIR[buf[start + i] as number] as number) ^ ((s.charCodeAt(j) << 8) | s.charCodeAt(j + 1));
  }
  return d === 0;
}

/** Lower-case hex of a binary string (each char code < 256; see Sha256Binary). */
export function binaryToHex(s: string, scratch: HexScratch | null = null): string {
  const n = s.length;
  const out = outBuffer(scratch, n);
  for (let i = 0; i < n; i++) {
    const p = HEX_PAIR[s.charCodeAt(i) & 0xff] as number;
    out[2 * i] = p >> 8;
    out[2 * i + 1] = p & 0xff;
  }
  return ascii.decode(out.subarray(0, 2 * n));
}
