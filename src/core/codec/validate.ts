/**
 * Value-level rules a decoder enforces and an encoder checks (docs/protocol/contract-id.md §4, §13;
 * docs/protocol/blob-format.md §3, §5): numeric text, party ids, Daml names, contract-id shape, date and
 * timestamp ranges, strictly sorted party lists.
 */

const MAX_NUMERIC_SCALE = 37;
const MAX_NUMERIC_PRECISION = 38;

/**
 * Returns null when `s` is a valid Daml Numeric text — `-?([1-9]\d*|0)\.(\d*)`
 * (docs/protocol/contract-id.md §4) with scale ≤ 37 and at most 38 significant digits — else the rule it
 * breaks. A char loop, not a regex: it runs once per numeric on the verifier's hot path.
 */
export function checkNumeric(s: string): string | null {
  const n = s.length;
  let i = 0;
  if (n > 0 && s.charCodeAt(0) === 45) i = 1;
  const intStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  const intDigits = i - intStart;
  if (
    intDigits === 0 ||
    i >= n ||
    s.charCodeAt(i) !== 46 ||
    (intDigits > 1 && s.charCodeAt(intStart) === 48)
  ) {
    return 'a numeric matching -?([1-9]\\d*|0)\\.(\\d*)';
  }
  i++;
  const fracStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return 'a numeric matching -?([1-9]\\d*|0)\\.(\\d*)';
    i++;
  }
  const scale = n - fracStart;
  if (scale > MAX_NUMERIC_SCALE) return `a numeric with scale ≤ ${MAX_NUMERIC_SCALE}`;
  const integral = intDigits === 1 && s.charCodeAt(intStart) === 48 ? 0 : intDigits;
  if (integral + scale > MAX_NUMERIC_PRECISION)
    return `a numeric with at most ${MAX_NUMERIC_PRECISION} digits`;
  return null;
}

/**
 * `isPartyId`, memoized for the decoder's hot path in `knownParties` (the caller's; null: no memo):
 * the char loop runs once per distinct party (parties repeat in every blob). Only valid ids are
 * stored; the set is cleared when it grows past 4096 entries.
 */
export function isPartyIdCached(s: string, knownParties: Set<string> | null): boolean {
  if (knownParties === null) return isPartyId(s);
  if (knownParties.has(s)) return true;
  if (!isPartyId(s)) return false;
  if (knownParties.size >= 4096) knownParties.clear();
  knownParties.add(s);
  return true;
}

/** Daml-LF party id: 1..255 chars of [A-Za-z0-9:_\- ]. */
export function isPartyId(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 255) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const ok =
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 58) || // 0-9 and ':'
      c === 95 ||
      c === 45 ||
      c === 32;
    if (!ok) return false;
  }
  return true;
}

/** A Daml-LF name segment: [A-Za-z_$][A-Za-z0-9_$]*, at most 1000 chars. */
export function isDamlName(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 1000) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/** 64 lower-case hex chars. */
export function isPackageId(s: string): boolean {
  if (s.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** A package name: [A-Za-z0-9._-]{1,255}. */
export function isPackageName(s: string): boolean {
  return /^[A-Za-z0-9._-]{1,255}$/.test(s);
}

/**
 * Contract-id bytes (docs/protocol/blob-format.md §5): V1 = 0x00 ‖ 32-byte discriminator ‖ suffix ≤ 94 bytes;
 * V2 = 0x01 ‖ 12-byte local part ‖ suffix ≤ 33 bytes. Returns null when valid, else the rule.
 */
export function checkContractIdBytes(b: Uint8Array): string | null {
  if (b.length === 0) return 'a non-empty contract id';
  if (b[0] === 0x00)
    return b.length >= 33 && b.length <= 33 + 94 ? null : 'a V1 contract id of 33..127 bytes';
  if (b[0] === 0x01) return b.length >= 13 && b.length <= 13 + 33 ? null : 'a V2 contract id of 13..46 bytes';
  return 'a contract id starting with 0x00 (V1) or 0x01 (V2)';
}

/** Daml Date range: 0001-01-01 .. 9999-12-31 as days since 1970-01-01. */
export const MIN_DATE = -719162;
export const MAX_DATE = 2932896;
/** Daml Timestamp range in microseconds: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z. */
export const MIN_TIMESTAMP = -62135596800000000n;
export const MAX_TIMESTAMP = 253402300799999999n;

/** Index of the first element not strictly greater than its predecessor, or -1 when strictly ascending. */
export function firstUnsorted(list: readonly string[]): number {
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]! < list[i]!)) return i;
  return -1;
}
