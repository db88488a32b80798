/**
 * Errors of the DAR / DALF loader (docs/protocol/dar-format.md §2–§5): the zip container, the manifest,
 * the `Archive` envelope and the LF 2.x package subset. Every malformed or hostile input ends in
 * a `DarError` with one of the stable codes below.
 */
import { guardOf, ReserveAuditError } from './base.js';

export type DarErrorCode =
  /** the zip ends before a structure it announces (EOCD, central directory, local header, data) */
  | 'DAR_ZIP_TRUNCATED'
  /** a zip structure is inconsistent (bad signature, overlapping offsets, duplicate names) */
  | 'DAR_ZIP_MALFORMED'
  /** a zip feature we do not read: ZIP64, encryption, multi-disk, compression other than 0/8 */
  | 'DAR_ZIP_UNSUPPORTED'
  /** a safety limit was hit: entry count, entry/total uncompressed size, name length */
  | 'DAR_ZIP_LIMIT'
  /** an entry's CRC-32 or uncompressed size differs from the central directory */
  | 'DAR_ZIP_CRC_MISMATCH'
  /** the injected raw-deflate function failed (corrupt stream, or output above the limit) */
  | 'DAR_ZIP_INFLATE_FAILED'
  /** META-INF/MANIFEST.MF is missing, not UTF-8, or lacks/contradicts a required key */
  | 'DAR_MANIFEST_INVALID'
  /** a dalf named by the manifest is not in the zip */
  | 'DAR_ENTRY_MISSING'
  /** protobuf wire-format error in an Archive / ArchivePayload / Package */
  | 'DAR_ARCHIVE_MALFORMED'
  /** Archive.hash differs from the SHA-256 of Archive.payload */
  | 'DAR_PACKAGE_HASH_MISMATCH'
  /** Archive.hash_function other than SHA256 (0) */
  | 'DAR_UNSUPPORTED_HASH_FUNCTION'
  /** LF 1.x, an unknown LF major, or an LF 2 minor/patch we do not read */
  | 'DAR_UNSUPPORTED_LF_VERSION'
  /** an index into interned strings / dotted names / types / package imports is out of range */
  | 'DAR_INTERNED_INDEX_OUT_OF_RANGE'
  /** interned type i references interned type k >= i */
  | 'DAR_TYPE_FORWARD_REFERENCE'
  /** a type nests deeper than the limit */
  | 'DAR_TYPE_TOO_DEEP'
  /** a type that is malformed, or not serializable where a serializable data type needs it */
  | 'DAR_TYPE_INVALID'
  /** two definitions of the same data type / two packages with one id in one load */
  | 'DAR_DUPLICATE_DEFINITION'
  /** a template or type named on the command line / in a request is not in the loaded packages */
  | 'DAR_TEMPLATE_NOT_FOUND'
  /** a data type referenced by a reachable type is not in the loaded packages */
  | 'DAR_TYPE_NOT_FOUND'
  /** reading a DAR/DALF file from disk failed */
  | 'DAR_FILE_READ_FAILED';

export class DarError extends ReserveAuditError<DarErrorCode> {
  override name = 'DarError';
}

export const isDarError = guardOf(DarError);
