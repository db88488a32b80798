/**
 * The last line of defence of every public decoder (docs/architecture.md "Code style"): anything
 * that is not already a `CodecError` (a bug, a stack overflow) becomes `BLOB_MALFORMED`, so no raw
 * RangeError/TypeError ever escapes.
 */
import { CodecError } from '../../errors/codec.js';

/** Runs `run`; anything thrown that is not a CodecError becomes a CodecError `code` whose message ends with the reason. */
function guard<T>(run: () => T, code: 'BLOB_MALFORMED' | 'ENCODE_INVALID_INPUT', expected: string): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new CodecError(code, `${expected} (${reason})`, { cause: e });
  }
}

export function guardDecode<T>(run: () => T): T {
  return guard(run, 'BLOB_MALFORMED', 'input expected a well-formed encoding, got an internal failure');
}

/** The same for encoders: anything unexpected (e.g. a malformed object) becomes `ENCODE_INVALID_INPUT`. */
export function guardEncode<T>(run: () => T): T {
  return guard(run, 'ENCODE_INVALID_INPUT', 'input expected a well-formed contract/value, got');
}
