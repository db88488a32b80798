/**
 * Strict text ↔ bytes conversions used at the edges of the codec (docs/protocol/blob-format.md §1: the
 * JSON Ledger API carries `createdEventBlob` as standard base64 with padding;
 * docs/protocol/contract-id.md §13: contract ids are lower-case hex). Pure TypeScript: no Buffer, no atob.
 */

import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { allocBytes, type BytePool } from './byte-pool.js';

const HEX_DIGITS = '0123456789abcdef';
const HEX_PAIRS: readonly string[] = Array.from(
  { length: 256 },
  (_, i) => HEX_DIGITS[i >> 4]! + HEX_DIGITS[i & 15]!,
);

/** Value of a lower-case hex digit char code, or -1. */
function hexNibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * Parses lower-case hex of even length (empty allowed) into bytes.
 * Upper-case digits, odd length, whitespace and a `0x` prefix are rejected (`INVALID_HEX`).
 */
export function parseHex(text: string, field = 'hex'): Uint8Array {
  if (typeof text !== 'string') {
    throw new CodecError(
      'INVALID_HEX',
      `"${field}" expected a lower-case hex string, got ${formatGot(text)}`,
    );
  }
  if (text.length % 2 !== 0) {
    throw new CodecError(
      'INVALID_HEX',
      `"${field}" expected an even number of hex digits, got ${text.length} digits: ${formatGot(text)}`,
    );
  }
  const out = allocBytes(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(text.charCodeAt(2 * i));
    const lo = hexNibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) {
      throw new CodecError(
        'INVALID_HEX',
        `"${field}" expected lower-case hex digits [0-9a-f], got ${formatGot(text.slice(2 * i, 2 * i + 2))} at offset ${2 * i}`,
        { details: { offset: 2 * i } },
      );
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Formats bytes as lower-case hex. */
export function formatHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX_PAIRS[bytes[i]!]!;
  return s;
}

/**
 * A base64 decoder seam for callers at the edges (like the SHA-256 seam): given standard base64
 * text, the bytes when the text is canonical strict base64 (exactly what `parseBase64` accepts),
 * else null — and the caller then runs `parseBase64`, which throws the precise error. Core never
 * implements one with Buffer; src/io/node-base64.ts does.
 */
export type Base64Decoder = (text: string) => Uint8Array | null;

/**
 * Like `Base64Decoder`, but the bytes are a view of a buffer the decoder reuses: valid only until
 * its next call (no allocation per blob). For callers that are done with the bytes before they
 * decode again (the one-pass verdict); src/io/node-base64.ts has one.
 */
export type Base64ScratchDecoder = (text: string) => Uint8Array | null;

const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE: Readonly<Int8Array> = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64_ALPHABET.charCodeAt(i)] = i;
  return t;
})();

/** 12-bit values of every pair of base64 chars (index = c0 << 7 | c1), -1 when either is invalid. */
const B64_PAIRS: Readonly<Int16Array> = (() => {
  const pairs = new Int16Array(128 * 128).fill(-1);
  for (let a = 0; a < 64; a++) {
    for (let b = 0; b < 64; b++) {
      pairs[(B64_ALPHABET.charCodeAt(a) << 7) | B64_ALPHABET.charCodeAt(b)] = (a << 6) | b;
    }
  }
  return pairs;
})();

function b64Value(text: string, i: number, field: string): number {
  const c = text.charCodeAt(i);
  const v = c < 128 ? B64_VALUE[c]! : -1;
  if (v < 0) {
    throw new CodecError(
      'INVALID_BASE64',
      `"${field}" expected standard base64 [A-Za-z0-9+/] with '=' padding, got ${formatGot(text[i])} at offset ${i}`,
      { details: { offset: i } },
    );
  }
  return v;
}

/**
 * Parses strict standard base64 (RFC 4648 §4) with padding: length a multiple of 4, no whitespace,
 * no URL-safe alphabet, at most two '=' only at the end, and zero bits in the unused low bits of the
 * last symbol (so every byte string has exactly one accepted text). `maxBytes` bounds the decoded
 * size before anything is allocated.
 */
export function parseBase64(
  text: string,
  field = 'base64',
  maxBytes = Number.POSITIVE_INFINITY,
  pool: BytePool | null = null,
): Uint8Array {
  if (typeof text !== 'string') {
    throw new CodecError('INVALID_BASE64', `"${field}" expected a base64 string, got ${formatGot(text)}`);
  }
  if (text.length % 4 !== 0) {
    throw new CodecError(
      'INVALID_BASE64',
      `"${field}" expected base64 whose length is a multiple of 4, got ${text.length} chars`,
    );
  }
  let pad = 0;
  if (text.length > 0 && text.charCodeAt(text.length - 1) === 61) pad = 1;
  // '=' only at the end: "AA=A" is not padded (and fails on its '=')
  if (pad === 1 && text.length > 1 && text.charCodeAt(text.length - 2) === 61) pad = 2;
  const size = (text.length / 4) * 3 - pad;
  if (size > maxBytes) {
    throw new CodecError(
      'BLOB_TOO_LARGE',
      `"${field}" expected at most ${maxBytes} bytes, got ${size} bytes`,
      {
        details: { size, maxBytes },
      },
    );
  }
  const out = allocBytes(size, pool);
  const full = text.length - (pad > 0 ? 4 : 0);
  const P = B64_PAIRS;
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    const hi = (c0 | c1) < 128 ? P[(c0 << 7) | c1]! : -1;
    const lo = (c2 | c3) < 128 ? P[(c2 << 7) | c3]! : -1;
    if ((hi | lo) < 0) {
      for (let k = i; k < i + 4; k++) b64Value(text, k, field); // throws with the exact offset
    }
    const n = (hi << 12) | lo;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (pad > 0) {
    const a = b64Value(text, full, field);
    const b = b64Value(text, full + 1, field);
    if (pad === 2) {
      if ((b & 15) !== 0) throw nonCanonical(field, full + 1);
      out[o++] = (a << 2) | (b >> 4);
    } else {
      const c = b64Value(text, full + 2, field);
      if ((c & 3) !== 0) throw nonCanonical(field, full + 2);
      out[o++] = (a << 2) | (b >> 4);
      out[o++] = ((b & 15) << 4) | (c >> 2);
    }
  }
  return out;
}

function nonCanonical(field: string, offset: number): CodecError {
  return new CodecError(
    'INVALID_BASE64',
    `"${field}" expected canonical base64 (zero unused bits before '='), got non-zero bits at offset ${offset}`,
    { details: { offset } },
  );
}

/** Formats bytes as standard base64 with padding. */
export function formatBase64(bytes: Uint8Array): string {
  let s = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 3 <= n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s +=
      B64_ALPHABET[v >> 18]! +
      B64_ALPHABET[(v >> 12) & 63]! +
      B64_ALPHABET[(v >> 6) & 63]! +
      B64_ALPHABET[v & 63]!;
  }
  if (n - i === 1) {
    const v = bytes[i]! << 16;
    s += B64_ALPHABET[v >> 18]! + B64_ALPHABET[(v >> 12) & 63]! + '==';
  } else if (n - i === 2) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    s += B64_ALPHABET[v >> 18]! + B64_ALPHABET[(v >> 12) & 63]! + B64_ALPHABET[(v >> 6) & 63]! + '=';
  }
  return s;
}
