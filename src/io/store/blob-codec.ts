/**
 * How the mirror stores a created_event_blob (docs/mirror.md "Compact blobs"). Consecutive reserve
 * contracts of one pool differ in a few fields (IDs, reserves, times), so each pool has a
 * dictionary — the first blob the mirror stored for it, kept raw in `blob_dictionaries` — and every
 * later blob of the pool is stored as raw DEFLATE (RFC 1951) with that preset dictionary; the
 * contract row's `blob_dict` names the dictionary (NULL = the blob is stored as is, as every row
 * written before schema 4 is). Readers always get the original bytes back; `blob_sha256` is of
 * the original bytes. Compression is an edge concern: src/core never sees a stored form.
 *
 * Reading (docs/bench/audit.md, "Inflating without a zlib object per blob"): node:zlib's one-shot
 * `inflateRawSync` builds a stream object and a zlib state for every call, which cost more than
 * the ~450 bytes it inflates (9–15 µs a blob); Node documents no synchronous way to reuse one
 * (`reset()` is for the streaming API). Small stored forms are therefore inflated with fflate into
 * the caller's buffer (`decodeStoredBlobInto`: no allocation, 3.5–4.5 µs), larger ones with zlib,
 * which stops at the output limit. Both give the same bytes for every stream zlib accepts
 * (test/store/blob-inflate.test.ts); fflate checks less (a literal/length code 286–287 or a
 * distance code 30–31 inflate to other bytes instead of failing), so, as with zlib, a corrupt
 * stream may inflate to wrong bytes: only `blob_sha256` tells.
 */

import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { inflateSync as inflateWithFflate } from 'fflate';
import { StoreError } from '../../errors/store.js';

/** Largest blob a stored form may inflate to (a created_event_blob is a few KiB). */
export const MAX_BLOB_BYTES = 1 << 20;

/**
 * Largest stored form inflated with fflate. fflate does not stop at the output limit: a stream
 * that inflates past it is only refused at its end, after at most ~1,032 output bytes per input
 * byte (writes past the caller's window are dropped), so only small forms take that path.
 */
const FFLATE_MAX_STORED_BYTES = 16 << 10;

/**
 * The stored form of `blob` with `dict` as the preset dictionary, or null when deflating does not
 * make it smaller (then the caller stores the blob raw).
 */
export function encodeStoredBlob(blob: Uint8Array, dict: Uint8Array): Buffer | null {
  const packed = deflateRawSync(blob, {
    dictionary: dict,
    level: constants.Z_BEST_COMPRESSION,
    memLevel: 9,
  });
  return packed.length < blob.length ? packed : null;
}

/**
 * How a new blob (base64) is stored with its pool's dictionary `d` (id and bytes): deflated and
 * naming the dictionary, or raw (`blobDict` null) when that is not smaller or there is none.
 */
export function encodeStoredForm(
  b64: string,
  d: { readonly id: unknown; readonly dict: Uint8Array } | undefined,
): { readonly blob: Buffer; readonly blobDict: unknown } {
  const blob = Buffer.from(b64, 'base64');
  const packed = d === undefined ? null : encodeStoredBlob(blob, d.dict);
  return packed === null ? { blob, blobDict: null } : { blob: packed, blobDict: d?.id ?? null };
}

/**
 * The original bytes of a stored blob: `stored` itself when `dictId` is null, else `stored`
 * inflated with the dictionary `dict`. A missing dictionary or a stream that does not inflate is
 * STORE_CORRUPT, naming the contract.
 */
export function decodeStoredBlob(
  contractId: string,
  stored: unknown,
  dictId: unknown,
  dict: unknown,
): Uint8Array {
  const bytes = assertStoredForm(contractId, stored, dictId, dict);
  if (bytes === null) return stored as Uint8Array;
  scratch ??= new Uint8Array(MAX_BLOB_BYTES + 1);
  return scratch.slice(0, inflateStored(contractId, bytes, dictId, dict as Uint8Array, scratch, 0));
}

/** decodeStoredBlob's output window, allocated once per thread. */
let scratch: Uint8Array | null = null;

/**
 * `decodeStoredBlob` written into `out` at `at` instead of a new buffer; returns the blob's length.
 * `out` must hold `at + MAX_BLOB_BYTES + 1` bytes for a compressed form (bytes past the blob may be
 * overwritten) and `at + stored.length` for a raw one.
 */
export function decodeStoredBlobInto(
  contractId: string,
  stored: unknown,
  dictId: unknown,
  dict: unknown,
  out: Uint8Array,
  at: number,
): number {
  const bytes = assertStoredForm(contractId, stored, dictId, dict);
  if (bytes === null) {
    out.set(stored as Uint8Array, at);
    return (stored as Uint8Array).length;
  }
  return inflateStored(contractId, bytes, dictId, dict as Uint8Array, out, at);
}

/** The stored bytes to inflate, or null when they are the blob itself; throws STORE_CORRUPT. */
function assertStoredForm(
  contractId: string,
  stored: unknown,
  dictId: unknown,
  dict: unknown,
): Uint8Array | null {
  if (!(stored instanceof Uint8Array))
    throw new StoreError(
      'STORE_CORRUPT',
      `contracts.blob of "${contractId}" expected bytes, got ${stored === null ? 'null' : typeof stored}`,
    );
  if (dictId === null || dictId === undefined) return null;
  if (!(dict instanceof Uint8Array))
    throw new StoreError(
      'STORE_CORRUPT',
      `contracts.blob_dict of "${contractId}" expected an existing blob dictionary, got ${String(dictId)} (missing)`,
    );
  return stored;
}

/** Inflates `stored` over `dict` into `out` at `at` (see decodeStoredBlobInto); returns the length. */
function inflateStored(
  contractId: string,
  stored: Uint8Array,
  dictId: unknown,
  dict: Uint8Array,
  out: Uint8Array,
  at: number,
): number {
  try {
    if (stored.length === 0) throw new RangeError('it is empty');
    if (stored.length > FFLATE_MAX_STORED_BYTES) {
      const blob = inflateRawSync(stored, { dictionary: dict, maxOutputLength: MAX_BLOB_BYTES });
      out.set(blob, at);
      return blob.length;
    }
    // a window one byte longer than the limit: a longer blob fills it (the rest is dropped)
    const n = inflateWithFflate(stored, {
      dictionary: dict,
      out: out.subarray(at, at + MAX_BLOB_BYTES + 1),
    }).length;
    if (n > MAX_BLOB_BYTES) throw new RangeError(`it inflates to more than ${MAX_BLOB_BYTES} bytes`);
    return n;
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError(
      'STORE_CORRUPT',
      `contracts.blob of "${contractId}" expected a DEFLATE stream over dictionary ${String(dictId)}, got one that does not inflate: ${msg}`,
      { cause: e },
    );
  }
}

/** The SQL expression (both backends) for a row's dictionary bytes, beside `blob` and `blob_dict`. */
export const BLOB_DICT_COLUMN = '(SELECT d.dict FROM blob_dictionaries d WHERE d.id = blob_dict)';
