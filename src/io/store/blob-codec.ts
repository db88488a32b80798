/**
 * How the mirror stores a created_event_blob (docs/mirror.md "Compact blobs"). Consecutive reserve
 * contracts of one pool differ in a few fields (IDs, reserves, times), so each pool has a
 * dictionary — the first blob the mirror stored for it, kept raw in `blob_dictionaries` — and every
 * later blob of the pool is stored as raw DEFLATE (RFC 1951) with that preset dictionary; the
 * contract row's `blob_dict` names the dictionary (NULL = the blob is stored as is, as every row
 * written before schema 4 is). Readers always get the original bytes back; `blob_sha256` is of
 * the original bytes. Compression is an edge concern: src/core never sees a stored form.
 */
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { StoreError } from '../../errors/store.js';

/** Largest blob a stored form may inflate to (a created_event_blob is a few KiB). */
const MAX_BLOB_BYTES = 1 << 20;

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
  if (!(stored instanceof Uint8Array))
    throw new StoreError(
      'STORE_CORRUPT',
      `contracts.blob of "${contractId}" expected bytes, got ${stored === null ? 'null' : typeof stored}`,
    );
  if (dictId === null || dictId === undefined) return stored;
  if (!(dict instanceof Uint8Array))
    throw new StoreError(
      'STORE_CORRUPT',
      `contracts.blob_dict of "${contractId}" expected an existing blob dictionary, got ${String(dictId)} (missing)`,
    );
  try {
    return inflateRawSync(stored, { dictionary: dict, maxOutputLength: MAX_BLOB_BYTES });
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
