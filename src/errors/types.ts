/**
 * Errors of the Daml type environment and of typing untyped blob values against it
 * (docs/protocol/contract-id.md §6.4, docs/protocol/dar-format.md §6; docs/type-file.md).
 */
import { ReserveAuditError } from './base.js';

export type DamlTypeErrorCode =
  /** no package / data type / template for the reference (and no upgrade-compatible substitute) */
  | 'TYPE_NOT_FOUND'
  /** a value does not fit its type: wrong kind, extra record fields, missing non-optional field */
  | 'TYPE_MISMATCH'
  /** a Numeric value's scale differs from the type's scale */
  | 'NUMERIC_SCALE_MISMATCH'
  /** a variant or enum constructor that the data type does not declare */
  | 'UNKNOWN_CONSTRUCTOR'
  /** a type variable without a binding, or a type constructor applied to the wrong number of args */
  | 'TYPE_ARGUMENTS_INVALID'
  /** the value or the type nests deeper than the limit */
  | 'TYPE_DEPTH_EXCEEDED'
  /** a type file that is not valid JSON or does not follow docs/type-file.md */
  | 'TYPE_FILE_INVALID'
  /** a type file could not be read from disk */
  | 'TYPE_FILE_READ_FAILED';

/** A typing or type-environment failure; `details.path` locates the value (e.g. `$.config.fees`). */
export class DamlTypeError extends ReserveAuditError<DamlTypeErrorCode> {
  override name = 'DamlTypeError';
}
