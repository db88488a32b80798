/**
 * Hex columns stored as bytes (SQLite schema 6; docs/mirror.md "Template keys and binary
 * digests"): a contract row's `blob_sha256` and `update_id` are lowercase hex strings of even
 * length in practice, stored as a BLOB of half the size; any other text (an update ID as a
 * hostile server served it) is stored as TEXT unchanged. Readers turn a BLOB back into lowercase
 * hex, so they read exactly the string that was written. PostgreSQL keeps these columns TEXT
 * (strings pass through `decodeHexColumn` unchanged).
 */

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** What a hex column stores for `s`: its bytes when `s` is lowercase hex of even length, else `s`. */
export function encodeHexColumn(s: string): Buffer | string {
  return LOWER_HEX.test(s) ? Buffer.from(s, 'hex') : s;
}

/** The string a hex column held: a BLOB as lowercase hex, a string as it is, anything else null. */
export function decodeHexColumn(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
  return null;
}

/** SQL (SQLite) turning the text of hex column `col` into its stored form, as encodeHexColumn does. */
export function buildHexStorageSql(col: string): string {
  // byte-exact: text functions stop at a NUL, so the round trip is compared as bytes
  return `CASE WHEN typeof(${col}) = 'text' AND CAST(lower(hex(unhex(${col}))) AS BLOB) = CAST(${col} AS BLOB)
    THEN unhex(${col}) ELSE ${col} END`;
}
