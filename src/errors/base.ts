/**
 * The one error hierarchy of reserve-audit (docs/architecture.md "Code style": errors with stable codes).
 *
 * Every error thrown by a public function is a `ReserveAuditError` with a stable `code`
 * (SCREAMING_SNAKE_CASE, never renamed once released), a `shortMessage` in the form
 * `"<field>" expected <rule>, got <value>`, optional structured `details`, and the `cause`.
 * Domain files (`codec.ts`, `hash.ts`, ...) subclass it with their code union and their name.
 * Audit discrepancies are NOT errors: they are findings (src/core/audit).
 */

export interface ReserveAuditErrorOptions {
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * The base of every error; `C` is the union of codes a domain subclass may carry, so a subclass is
 * only its name and its code type: `class AmmError extends ReserveAuditError<AmmErrorCode> { ... }`.
 */
export class ReserveAuditError<C extends string = string> extends Error {
  override name = 'ReserveAuditError';
  readonly code: C;
  readonly shortMessage: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: C, shortMessage: string, options: ReserveAuditErrorOptions = {}) {
    super(`${code}: ${shortMessage}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details ?? {};
  }
}

/** The type guard of one error class: `isAmmError = guardOf(AmmError)` is `(e) => e instanceof AmmError`. */
export function guardOf<E extends ReserveAuditError>(
  errorClass: abstract new (...args: never[]) => E,
): (e: unknown) => e is E {
  return (e: unknown): e is E => e instanceof errorClass;
}

export const isReserveAuditError = guardOf<ReserveAuditError>(ReserveAuditError);

/** Renders a hostile value for an error message: quoted, truncated, control characters escaped. */
export function formatGot(value: unknown, max = 80): string {
  let s: string;
  if (typeof value === 'string') s = JSON.stringify(value);
  else if (typeof value === 'bigint') s = `${value}n`;
  else if (value instanceof Uint8Array) s = `${value.length} bytes`;
  else if (value === undefined) s = 'undefined';
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
}
