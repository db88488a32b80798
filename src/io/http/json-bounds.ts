/**
 * Bounded JSON (issue 30 "deep JSON"; docs/threat-model.md "Attacks on the auditor"): before a
 * response body is given to `JSON.parse`, one pass over its bytes measures the nesting depth and
 * the number of structural tokens (`[`, `{`, `,`; every value but the first of a container follows
 * a comma, so values ≤ tokens + 1). `JSON.parse` builds the whole tree before any shape check
 * runs — 8 M nested arrays inside the 16 MiB size cap took 2.5 GB — so the limits are enforced on
 * the bytes, and a body past them fails at the byte that crosses the limit, before any value is
 * built. The scan reads strings only to skip them (a `\` escapes the next byte), needs no valid
 * UTF-8 (bytes ≥ 0x80 only occur inside strings of valid JSON) and allocates nothing.
 */

export interface JsonBounds {
  /** deepest nesting of arrays and objects (default 64; the exchange's documents nest 6 deep) */
  readonly maxDepth: number;
  /** `[`, `{` and `,` at most (default 2,000,000; a 10,000-pool /pools/proof has about 300,000) */
  readonly maxTokens: number;
}

const DEFAULT_JSON_BOUNDS: JsonBounds = { maxDepth: 64, maxTokens: 2_000_000 };

/** Which bound a body broke, and where; null when it is within both. */
export interface JsonBoundBreach {
  readonly bound: 'depth' | 'tokens';
  readonly limit: number;
  /** byte offset of the token that crossed the limit */
  readonly offset: number;
}

/**
 * A scan that is fed a body chunk by chunk as it arrives (the HTTP client aborts the transfer at the
 * first breach, so a hostile body costs the bytes up to its breaking token, not its 16 MiB) and keeps
 * across chunks what the one pass needs: the depth, the tokens, whether it is inside a string and
 * whether the previous byte was an escape. `push` returns the breach (its offset counted from the
 * first byte of the body) or null; after a breach it keeps returning it.
 */
export interface JsonBoundsScan {
  push(chunk: Uint8Array): JsonBoundBreach | null;
}

export function createJsonBoundsScan(bounds: JsonBounds = DEFAULT_JSON_BOUNDS): JsonBoundsScan {
  let depth = 0;
  let tokens = 0;
  let inString = false;
  let escaped = false;
  let base = 0;
  let breach: JsonBoundBreach | null = null;
  return {
    push(chunk) {
      if (breach !== null) return breach;
      const n = chunk.length;
      for (let i = 0; i < n; i++) {
        const b = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (b === 0x5c) escaped = true;
          else if (b === 0x22) inString = false;
        } else if (b === 0x22) inString = true;
        else if (b === 0x5b || b === 0x7b) {
          depth++;
          tokens++;
          if (depth > bounds.maxDepth) breach = { bound: 'depth', limit: bounds.maxDepth, offset: base + i };
          else if (tokens > bounds.maxTokens)
            breach = { bound: 'tokens', limit: bounds.maxTokens, offset: base + i };
          if (breach !== null) return breach;
        } else if (b === 0x5d || b === 0x7d) depth--;
        else if (b === 0x2c) {
          tokens++;
          if (tokens > bounds.maxTokens) {
            breach = { bound: 'tokens', limit: bounds.maxTokens, offset: base + i };
            return breach;
          }
        }
      }
      base += n;
      return null;
    },
  };
}

/** Scans a whole `body` up to the first byte that breaks a bound (see the module comment). */
export function checkJsonBounds(
  body: Uint8Array,
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): JsonBoundBreach | null {
  return createJsonBoundsScan(bounds).push(body);
}
