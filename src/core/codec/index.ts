/**
 * The blob/value codec (docs/protocol/blob-format.md; docs/protocol/contract-id.md §4, §13): decode and
 * encode `created_event_blob`s and Daml-LF Values, strict hex/base64, and a JSON rendering for humans.
 */
export { decodeAuthenticationData, encodeAuthenticationData } from './authentication-data.js';
export { decodeCreatedEventBlob, SUPPORTED_SERIALIZATION_VERSIONS } from './blob-decoder.js';
export { encodeCreatedEventBlob } from './blob-encoder.js';
export { BytePool } from './byte-pool.js';
export {
  type Base64Decoder,
  type Base64ScratchDecoder,
  formatBase64,
  formatHex,
  parseBase64,
  parseHex,
} from './bytes.js';
export type * from './contract.js';
export { formatDecodedContractJson } from './contract-json.js';
export { DecodeScratch } from './decode-scratch.js';
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  type DecodeOptions,
  type UnknownFieldMode,
} from './limits.js';
export { Utf8Cache } from './utf8.js';
export type * from './value.js';
export { type DecodeValueOptions, decodeValue } from './value-decoder.js';
export { type EncodeValueOptions, encodeValue } from './value-encoder.js';
