/**
 * The last line of defence of every public decoder (docs/architecture.md "Code style"): anything
 * that is not already a `CodecError` (a bug, a stack overflow) becomes `BLOB_MALFORMED`, so no raw
 * RangeError/TypeError ever escapes.
 */
import { CodecError } from '../../errors/codec.js';

export function guardDecode<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new CodecError(
      'BLOB_MALFORMED',
      `input expected a well-formed encoding, got an internal failure (${reason})`,
      {
        cause: e,
      },
    );
  }
}

/** The same for encoders: anything unexpected (e.g. a malformed object) becomes `ENCODE_INVALID_INPUT`. */
export function guardEncode<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new CodecError(
      'ENCODE_INVALID_INPUT',
      `input expected a well-formed contract/value, got (${reason})`,
      {
        cause: e,
      },
    );
  }
}
