/**
 * Reading a file the user named (a DAR, a type file, a blob): its size is checked before a byte is
 * read, and every failure is an error of the caller's domain that names the file.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ReserveAuditError, ReserveAuditErrorOptions } from '../../errors/base.js';

/** How a reader words its two failures (errors of its own domain). */
export interface BoundedFileErrors {
  /** the file holds more than the limit: `size` bytes */
  readonly tooLarge: (size: number) => Error;
  /** the file could not be read; `message` is the system's */
  readonly unreadable: (message: string, cause: unknown) => Error;
}

/** The bytes of the file at `fullPath` when it holds at most `maxBytes`; throws what `errors` builds otherwise. */
export async function readBoundedFile(
  fullPath: string,
  maxBytes: number,
  errors: BoundedFileErrors,
): Promise<Buffer> {
  const unreadable = (e: unknown): Error => errors.unreadable(e instanceof Error ? e.message : String(e), e);
  let size: number;
  try {
    size = (await stat(fullPath)).size;
  } catch (e) {
    throw unreadable(e);
  }
  if (size > maxBytes) throw errors.tooLarge(size);
  try {
    return await readFile(fullPath);
  } catch (e) {
    throw unreadable(e);
  }
}

/**
 * An error of class `ErrorClass` raised while reading the content of the file `path`, with the
 * file named: `<path>: <message>` and `details.file`; any other error as it was.
 */
export function toFileError<E extends ReserveAuditError>(
  e: unknown,
  path: string,
  ErrorClass: new (code: E['code'], shortMessage: string, options: ReserveAuditErrorOptions) => E,
): unknown {
  if (!(e instanceof ErrorClass)) return e;
  return new ErrorClass(e.code, `${path}: ${e.shortMessage}`, {
    details: { ...e.details, file: path },
    cause: e,
  });
}
