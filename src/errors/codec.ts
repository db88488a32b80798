/**
 * Errors of the blob/value codec (docs/protocol/blob-format.md §2–§6, docs/protocol/contract-id.md §4).
 *
 * Every failure of `decodeCreatedEventBlob`, `decodeValue`, the encoders and the hex/base64
 * parsers is a `CodecError` with one of the stable codes below. `details.offset` (when present) is
 * the byte offset in the input where the problem was found; `details.path` names the field.
 */
import { guardOf, ReserveAuditError } from './base.js';

export type CodecErrorCode =
  /** input larger than `maxBytes` */
  | 'BLOB_TOO_LARGE'
  /** the input (or an enclosing message) ended inside a tag, varint, fixed-width field or payload */
  | 'BLOB_TRUNCATED'
  /** bytes left after the `Versioned` envelope / after a complete Value */
  | 'BLOB_TRAILING_BYTES'
  /** a known field arrived with another wire type, or a group / reserved wire type (3, 4, 6, 7) */
  | 'BLOB_WRONG_WIRE_TYPE'
  /** field number 0 or above 2^29-1 */
  | 'BLOB_INVALID_TAG'
  /** a field the schema does not know (unknownFields: 'reject') */
  | 'BLOB_UNKNOWN_FIELD'
  /** a singular (non-repeated) field occurs twice */
  | 'BLOB_DUPLICATE_FIELD'
  /** a string field is not well-formed UTF-8 */
  | 'BLOB_INVALID_UTF8'
  /** a party list is not strictly ascending (unsorted or duplicate) */
  | 'BLOB_UNSORTED_PARTIES'
  /** a party string is not a Daml party id ([A-Za-z0-9:_\- ]{1,255}) */
  | 'BLOB_INVALID_PARTY'
  /** signatories empty, or maintainers / signatories / observers overlap */
  | 'BLOB_INCONSISTENT_PARTIES'
  /** a numeric is not `-?([1-9]\d*|0)\.(\d*)` with scale ≤ 37 and precision ≤ 38 */
  | 'BLOB_INVALID_NUMERIC'
  /** `Versioned.version` not one of 14, 15, 17, dev, 2.1, 2 — or not matching the layout */
  | 'BLOB_UNSUPPORTED_VERSION'
  /** Value nesting deeper than `maxDepth` */
  | 'BLOB_TOO_DEEP'
  /** a Value (oneof `sum`) with zero or several members */
  | 'BLOB_INVALID_ONEOF'
  /** a TextMap with a repeated key */
  | 'BLOB_DUPLICATE_MAP_KEY'
  /** a varint longer than 10 bytes or above 2^64-1 */
  | 'BLOB_VARINT_OVERFLOW'
  /** a length prefix larger than what is left of its enclosing message */
  | 'BLOB_LENGTH_OUT_OF_RANGE'
  /** a required field is absent or empty (e.g. package_name, contract_id, template_id) */
  | 'BLOB_MISSING_FIELD'
  /** a field is present but its value breaks a rule (range, identifier syntax, contract-id shape…) */
  | 'BLOB_INVALID_FIELD'
  /** the decoder failed in an unexpected way (a bug): the input is still rejected, typed */
  | 'BLOB_MALFORMED'
  /** not strict standard base64 with padding */
  | 'INVALID_BASE64'
  /** not lower-case hex of even length */
  | 'INVALID_HEX'
  /** encoder input that cannot be written (bad numeric, bad party, wrong salt length…) */
  | 'ENCODE_INVALID_INPUT'
  /** a decoder option out of its allowed range */
  | 'CODEC_INVALID_OPTION'
  /** a CLI blob argument (`@file`, `-`) or a batch input could not be read */
  | 'INPUT_UNREADABLE'
  /** a batch input's JSON document (or one of its JSON Lines) is larger than the cap */
  | 'BATCH_INPUT_TOO_LARGE'
  /** a batch entry is not a contract that can be checked: not JSON, no contract ID, no blob */
  | 'BATCH_ENTRY_INVALID';

export class CodecError extends ReserveAuditError<CodecErrorCode> {
  override name = 'CodecError';
}

export const isCodecError = guardOf(CodecError);
