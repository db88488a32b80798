/**
 * Errors of the audit mirror (src/io/store): the local SQLite database of snapshots, contracts,
 * observations and audit runs.
 */
import { ReserveAuditError } from './base.js';

export type StoreErrorCode =
  /** the database file could not be opened or created */
  | 'STORE_OPEN_FAILED'
  /** the database was written by a newer version (unknown migration) or a migration failed */
  | 'STORE_SCHEMA_UNSUPPORTED'
  /** a write failed (disk full, read-only mirror, constraint); the transaction was rolled back */
  | 'STORE_WRITE_FAILED'
  /** a row could not be read back (corrupt value, foreign data) */
  | 'STORE_CORRUPT';

export class StoreError extends ReserveAuditError<StoreErrorCode> {
  override name = 'StoreError';
}
