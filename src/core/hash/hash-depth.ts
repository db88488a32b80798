/**
 * The nesting limit of the value hashers. Daml-LF values nest at most 100 deep (the decoder
 * enforces its own limit); the hashers recurse and stop well before the JS stack would.
 */
import { HashError } from '../../errors/hash.js';

export const MAX_HASH_DEPTH = 512;

/** Throws VALUE_TOO_DEEP when `depth` exceeds MAX_HASH_DEPTH. */
export function assertDepth(depth: number): void {
  if (depth > MAX_HASH_DEPTH) {
    throw new HashError(
      'VALUE_TOO_DEEP',
      `"value" expected nesting depth <= ${MAX_HASH_DEPTH}, got ${depth}`,
    );
  }
}
