/**
 * Errors of value hashing, contract-ID parsing and contract-ID minting
 * (docs/protocol/contract-id.md §1–§6). Verification never throws these for a mismatch: verifyContractId
 * reports them as reasons with the same codes.
 */
import { ReserveAuditError } from './base.js';

export type HashErrorCode =
  /** the contract ID is not lower-case hex of the Canton V1 shape (length, characters, prefix) */
  | 'CONTRACT_ID_MALFORMED'
  /** a well-formed ID whose version is not ca10/ca11/ca12 (Canton 2.x ca00–ca03, V2 `01` IDs, …) */
  | 'UNSUPPORTED_CONTRACT_ID_VERSION'
  /** a Numeric string that is not `-?digits.digits` */
  | 'NUMERIC_MALFORMED'
  /** a value that cannot be hashed by the chosen method (e.g. a V11 top-level argument that is not a record) */
  | 'VALUE_NOT_HASHABLE'
  /** V12 (TypedNormalForm) hashing without a typed argument / type environment */
  | 'TYPES_REQUIRED'
  /** the contract has no usable salt, or a salt / discriminator is not 32 bytes */
  | 'SALT_INVALID'
  /** a contract key without the key hash the unicum needs (blob version "2" only) */
  | 'CONTRACT_KEY_HASH_MISSING'
  /** a value nests deeper than the hashing limit */
  | 'VALUE_TOO_DEEP';

export class HashError extends ReserveAuditError<HashErrorCode> {
  override name = 'HashError';
}
