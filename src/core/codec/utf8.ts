/**
 * Strict UTF-8 (RFC 3629) for protobuf `string` fields (docs/protocol/blob-format.md §3: proto3 strings must
 * be valid UTF-8; protobuf-java rejects the rest). Overlong forms, surrogates (U+D800–U+DFFF) and
 * code points above U+10FFFF are invalid. Short strings are decoded in TS; longer ones with the
 * standard (WHATWG, also in browsers) `TextDecoder` in fatal mode with the BOM kept, which applies
 * exactly these rules natively. Without a global TextDecoder the TS decoder does everything.
 */

interface FatalDecoder {
  decode(input: Uint8Array): string;
}
const nativeDecoder: FatalDecoder | null = (() => {
  const Ctor = (globalThis as { TextDecoder?: new (label: string, o: object) => FatalDecoder }).TextDecoder;
  return Ctor === undefined ? null : new Ctor('utf-8', { fatal: true, ignoreBOM: true });
})();

/**
 * A direct-mapped cache of recently decoded ASCII strings (parties, package ids, numerics repeat
 * within a blob and across the contracts of one exchange). A slot is checked byte-for-byte against
 * the cached string before reuse, so a hit is always exact; it only saves the allocation and the
 * native call. Only pure strings are cached (no mutable state escapes). The caller owns it (a
 * `DecodeScratch`, ./decode-scratch.ts); without one, `decodeUtf8` decodes every string afresh.
 */
const CACHE_SLOTS = 2048;
const MAX_CACHED_LENGTH = 128;

/** The string cache's slots (see above). */
export class Utf8Cache {
  /** the string of each slot */
  readonly strings: (string | undefined)[] = new Array(CACHE_SLOTS);
  /** the cached strings' bytes, MAX_CACHED_LENGTH per slot (typed-array compares beat charCodeAt) */
  readonly bytes = new Uint8Array(CACHE_SLOTS * MAX_CACHED_LENGTH);
  /** `bytes` read 4 at a time */
  readonly view = new DataView(this.bytes.buffer);
}

/**
 * Decodes `buf[start, end)`; returns null when the bytes are not well-formed UTF-8. `view`, a
 * DataView over exactly `buf`, lets a cache hit be confirmed 4 bytes at a time.
 */
export function decodeUtf8(
  buf: Uint8Array,
  start: number,
  end: number,
  view: DataView | null = null,
  cache: Utf8Cache | null = null,
): string | null {
  const n = end - start;
  if (n === 0) return '';
  if (n > MAX_CACHED_LENGTH) return decodeLong(buf, start, end);
  if (cache === null) return n <= 12 ? decodeUtf8Ts(buf, start, end) : decodeLong(buf, start, end);
  let h = Math.imul(n, 0x9e3779b1);
  if (n <= 16) {
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  } else {
    // O(1) slot choice for long strings: the length and a few bytes spread over the string
    h = Math.imul(
      h ^ (buf[start + 8]! | (buf[end - 1]! << 8) | (buf[end - 5]! << 16) | (buf[end - 9]! << 24)),
      0x85ebca6b,
    );
    h = Math.imul(
      h ^ (buf[start + (n >> 1)]! | (buf[start + (n >> 2)]! << 8) | (buf[end - 14]! << 16)),
      0xc2b2ae35,
    );
  }
  h = (h ^ (h >>> 15)) & (CACHE_SLOTS - 1);
  const hit = cache.strings[h];
  const base = h * MAX_CACHED_LENGTH;
  if (hit !== undefined && hit.length === n && sameBytes(cache, buf, start, n, base, view)) return hit;
  const s = n <= 12 ? decodeUtf8Ts(buf, start, end) : decodeLong(buf, start, end);
  if (s !== null && s.length === n) {
    // length n ⇔ all ASCII
    cache.strings[h] = s;
    const cacheBytes = cache.bytes;
    for (let i = 0; i < n; i++) cacheBytes[base + i] = buf[start + i]!;
  }
  return s;
}

/** buf[start, start + n) equals the cache's bytes [base, base + n). */
function sameBytes(
  cache: Utf8Cache,
  buf: Uint8Array,
  start: number,
  n: number,
  base: number,
  view: DataView | null,
): boolean {
  let i = 0;
  const cacheBytes = cache.bytes;
  if (view !== null) {
    const cacheView = cache.view;
    for (; i + 4 <= n; i += 4) if (view.getInt32(start + i) !== cacheView.getInt32(base + i)) return false;
  }
  for (; i < n; i++) if (cacheBytes[base + i] !== buf[start + i]) return false;
  return true;
}

function decodeLong(buf: Uint8Array, start: number, end: number): string | null {
  if (nativeDecoder === null) return decodeUtf8Ts(buf, start, end);
  try {
    return nativeDecoder.decode(buf.subarray(start, end));
  } catch {
    return null;
  }
}

/** The TS decoder (short strings, and the reference for tests). */
export function decodeUtf8Ts(buf: Uint8Array, start: number, end: number): string | null {
  let i = start;
  while (i < end && buf[i]! < 0x80) i++;
  if (i === end) return asciiString(buf, start, end);
  const units: number[] = [];
  for (let j = start; j < i; j++) units.push(buf[j]!);
  while (i < end) {
    const b0 = buf[i]!;
    if (b0 < 0x80) {
      units.push(b0);
      i++;
      continue;
    }
    let cp: number;
    let need: number;
    let min: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 0x1f;
      need = 1;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 0x0f;
      need = 2;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 0x07;
      need = 3;
      min = 0x10000;
    } else {
      return null;
    }
    if (i + need >= end) return null;
    for (let k = 1; k <= need; k++) {
      const b = buf[i + k];
      if (b === undefined || (b & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    if (cp >= 0x10000) {
      const v = cp - 0x10000;
      units.push(0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff));
    } else {
      units.push(cp);
    }
    i += need + 1;
  }
  let s = '';
  for (let k = 0; k < units.length; k += 4096) {
    s += String.fromCharCode.apply(null, units.slice(k, k + 4096));
  }
  return s;
}

function asciiString(buf: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 16) {
    let s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]!);
    return s;
  }
  if (n <= 4096) return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  let s = '';
  for (let k = start; k < end; k += 4096) {
    s += String.fromCharCode.apply(null, buf.subarray(k, Math.min(end, k + 4096)) as unknown as number[]);
  }
  return s;
}

/** Number of UTF-8 bytes of `s`, or -1 when `s` holds a lone surrogate (not encodable). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1;
      n += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1;
    else n += 3;
  }
  return n;
}

/** Writes `s` as UTF-8 at `buf[pos]` (the caller sized it with `utf8Length`); returns the new position. */
export function writeUtf8(s: string, buf: Uint8Array, pos: number): number {
  let p = pos;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[p++] = c;
    } else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 63);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      buf[p++] = 0xf0 | (c >> 18);
      buf[p++] = 0x80 | ((c >> 12) & 63);
      buf[p++] = 0x80 | ((c >> 6) & 63);
      buf[p++] = 0x80 | (c & 63);
    } else {
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 63);
      buf[p++] = 0x80 | (c & 63);
    }
  }
  return p;
}

/** Compares two strings by Unicode code point (= UTF-8 byte order), as Daml orders TextMap keys. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // surrogates (D800–DFFF) encode code points above every BMP char, so lift them above E000–FFFF
      const xs = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      const ys = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return xs - ys;
    }
  }
  return a.length - b.length;
}
