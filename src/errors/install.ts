/**
 * Errors of the installation: a command or function needs an optional package that is not installed
 * (docs/decisions/install.md: the database drivers and the websocket server are optional peer
 * dependencies, so a verify-only install compiles nothing). The message names the package and the
 * command that adds it.
 */
import { ReserveAuditError } from './base.js';

export type InstallErrorCode =
  /** an optional package (better-sqlite3, pg, ws) is needed and not installed */
  'OPTIONAL_PACKAGE_MISSING';

export class InstallError extends ReserveAuditError<InstallErrorCode> {
  override name = 'InstallError';
}
