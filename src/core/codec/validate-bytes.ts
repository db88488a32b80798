/**
 * The rules of validate.ts over UTF-8 byte ranges instead of strings, for the one-pass verifier
 * (src/core/hash/one-pass-verdict.ts), which copies the bytes of names, parties and texts into a
 * hash preimage without building JS strings. Each function agrees with its string twin applied to
 * the decoded range (test/codec/validate-bytes.test.ts); all the grammars but text are ASCII, so a
 * byte outside them fails exactly as the decoded char would.
 */
import { BytesMemo } from './bytes-memo.js';
import { decodeUtf8 } from './utf8.js';

/** Byte classes (bit flags) of the ASCII grammars below: one table load per byte. */
const PARTY = 1;
const NAME_START = 2;
const NAME_PART = 4;
const PACKAGE_NAME = 8;
const CLASS = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  const digit = c >= 48 && c <= 57;
  let k = 0;
  if (letter || digit || c === 58 || c === 95 || c === 45 || c === 32) k |= PARTY;
  if (letter || c === 95 || c === 36) k |= NAME_START | NAME_PART;
  if (digit) k |= NAME_PART;
  if (letter || digit || c === 46 || c === 95 || c === 45) k |= PACKAGE_NAME;
  CLASS[c] = k;
}

/** Every byte of `buf[start, end)` is in class `k`. */
function allIn(buf: Uint8Array, start: number, end: number, k: number): boolean {
  let all = k;
  for (let i = start; i < end; i++) all &= CLASS[buf[i] as number] as number;
  return all === k;
}

/** `isPartyId` of `buf[start, end)`: 1..255 bytes of [A-Za-z0-9:_\- ]. */
export function isPartyIdBytes(buf: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  return n > 0 && n <= 255 && allIn(buf, start, end, PARTY);
}

/** party ids that passed isPartyIdBytes, by their bytes (they recur in every blob of a ledger) */
const validParties = new BytesMemo<true>(256, 255);

/**
 * isPartyIdBytes, remembered: a range byte-for-byte equal to one that passed before passes
 * without the per-byte check (`view`: a DataView of all of `buf`, see BytesMemo.get).
 */
export function isPartyIdBytesMemo(buf: Uint8Array, view: DataView, start: number, end: number): boolean {
  if (validParties.get(buf, view, start, end) === true) return true;
  if (!isPartyIdBytes(buf, start, end)) return false;
  validParties.set(buf, start, end, true);
  return true;
}

/** `isDamlName` of `buf[start, end)`: [A-Za-z_$][A-Za-z0-9_$]*, 1..1000 bytes. */
export function isDamlNameBytes(buf: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n <= 0 || n > 1000) return false;
  return (
    ((CLASS[buf[start] as number] as number) & NAME_START) !== 0 && allIn(buf, start + 1, end, NAME_PART)
  );
}

/** `isPackageId` of `buf[start, end)`: 64 lower-case hex digits. */
export function isPackageIdBytes(buf: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 64) return false;
  for (let i = start; i < end; i++) {
    const c = buf[i] as number;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** `isPackageName` of `buf[start, end)`: [A-Za-z0-9._-]{1,255}. */
export function isPackageNameBytes(buf: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  return n > 0 && n <= 255 && allIn(buf, start, end, PACKAGE_NAME);
}

/**
 * `buf[start, end)` is well-formed UTF-8 (the decoder's rule for `string` fields). Well-formed UTF-8
 * re-encodes to the very same bytes, so such a range can be copied where `utf8(decoded)` is hashed.
 * With `view` (a DataView of all of `buf`'s bytes) ASCII is checked 4 bytes at a time (≈ 3× a byte
 * loop from 40 bytes on); anything else is decoded.
 */
export function isUtf8Bytes(
  buf: Uint8Array,
  start: number,
  end: number,
  view: DataView | null = null,
): boolean {
  let i = start;
  if (view !== null)
    for (const stop = end - 3; i < stop; i += 4)
      if ((view.getInt32(i) & 0x80808080) !== 0) return decodeUtf8(buf, start, end) !== null;
  for (; i < end; i++) {
    if ((buf[i] as number) >= 0x80) return decodeUtf8(buf, start, end) !== null;
  }
  return true;
}

/** Lexicographic comparison of two byte ranges of `buf` (= code-point order for UTF-8). */
export function compareByteRanges(buf: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): number {
  const n = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < n; i++) {
    const d = (buf[a + i] as number) - (buf[b + i] as number);
    if (d !== 0) return d;
  }
  return aEnd - a - (bEnd - b);
}

/**
 * `checkNumeric(decoded) === null` for `buf[start, end)`: -?([1-9]\d*|0)\.\d* with scale ≤ 37 and at
 * most 38 significant digits. Returns the number of digits (integral + fractional, the unscaled
 * value's digits) when valid, else -1.
 */
export function numericDigitsBytes(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  if (i < end && buf[i] === 45) i++;
  const intStart = i;
  while (i < end) {
    const c = buf[i] as number;
    if (c < 48 || c > 57) break;
    i++;
  }
  const intDigits = i - intStart;
  if (intDigits === 0 || i >= end || buf[i] !== 46 || (intDigits > 1 && buf[intStart] === 48)) return -1;
  i++;
  const fracStart = i;
  for (; i < end; i++) {
    const c = buf[i] as number;
    if (c < 48 || c > 57) return -1;
  }
  const scale = end - fracStart;
  if (scale > 37) return -1;
  const integral = intDigits === 1 && buf[intStart] === 48 ? 0 : intDigits;
  if (integral + scale > 38) return -1;
  return intDigits + scale;
}
