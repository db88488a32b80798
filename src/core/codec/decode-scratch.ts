/**
 * What repeated decodes share, held by the caller instead of module state: the string cache
 * (./utf8.ts), the byte pool (./byte-pool.ts) and the party ids already checked. It only makes
 * decoding cheaper, never different; one per thread of work (e.g. inside a `HashContext`,
 * src/core/hash/hash-context.ts). Without one, every decode allocates and checks afresh.
 */
import { BytePool } from './byte-pool.js';
import { Utf8Cache } from './utf8.js';

/** See the file comment: pass it as the decoder's `scratch` option. */
export class DecodeScratch {
  /** recently decoded ASCII strings */
  readonly strings = new Utf8Cache();
  /** the slab the decoded byte fields are carved from */
  readonly pool = new BytePool();
  /** valid party ids seen (bounded: cleared past 4,096) */
  readonly parties = new Set<string>();
}
