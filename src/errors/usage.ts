/**
 * Errors of the command line itself: the arguments do not parse (unknown command or option, a
 * missing required option, a value outside its choices) or an option's value breaks its rule
 * (`"--timeout" expected an integer 1..600000 (ms), got 0`). Nothing was checked, so the CLI maps
 * both to exit code 2 (could not check); the message is printed as one line without a stack.
 */
import { guardOf, ReserveAuditError } from './base.js';

export type UsageErrorCode =
  /** the command line does not parse: unknown command/option, missing argument, invalid choice */
  | 'USAGE_INVALID'
  /** an option's value is malformed or out of range (src/cli/options.ts) */
  | 'OPTION_INVALID';

export class UsageError extends ReserveAuditError<UsageErrorCode> {
  override name = 'UsageError';
}

export const isUsageError = guardOf(UsageError);
