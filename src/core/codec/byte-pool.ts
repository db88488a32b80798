/**
 * A bump allocator for the decoder's and verifier's byte arrays (performance only; no spec rule).
 *
 * V8 keeps a typed array of at most 64 bytes on the JS heap (cheap, ~0.1 µs), but gives every
 * larger one its own off-heap ArrayBuffer: ~2–5 µs per allocation on the benchmark machine, as
 * much as one SHA-256 of a whole blob. A `BytePool` instead carves arrays of 65..4096 bytes out of
 * a 32 KiB slab, as Node's `Buffer` pool does. Every region is handed out once and never
 * reused, so no two results alias; a region keeps its slab alive (at most 32 KiB per live result).
 * The returned array is zero-filled (a fresh slab is) and its `.buffer` is the slab.
 */

const SLAB_SIZE = 32 * 1024;
/** Larger requests get their own buffer (as before). */
const MAX_POOLED = 4096;
/** Up to this size V8 allocates on the JS heap, which is already cheap. */
const MAX_ON_HEAP = 64;

/** A slab allocator; the caller owns it (a `DecodeScratch`, ./decode-scratch.ts). */
export class BytePool {
  private slab = new Uint8Array(SLAB_SIZE);
  private offset = 0;

  /** A fresh, zero-filled, private array of `n` bytes (see the module comment for its `.buffer`). */
  alloc(n: number): Uint8Array {
    if (n <= MAX_ON_HEAP || n > MAX_POOLED) return new Uint8Array(n);
    if (this.offset + n > SLAB_SIZE) {
      this.slab = new Uint8Array(SLAB_SIZE);
      this.offset = 0;
    }
    const out = this.slab.subarray(this.offset, this.offset + n);
    // 8-byte alignment keeps later DataView/Float64Array views of a region possible
    this.offset = (this.offset + n + 7) & ~7;
    return out;
  }
}

/** A fresh, zero-filled, private array of `n` bytes: from `pool` when given, else its own. */
export function allocBytes(n: number, pool: BytePool | null = null): Uint8Array {
  return pool === null ? new Uint8Array(n) : pool.alloc(n);
}

/** A private copy of `src` (from the pool when given and it fits). */
export function copyBytes(src: Uint8Array, pool: BytePool | null = null): Uint8Array {
  const out = allocBytes(src.length, pool);
  out.set(src);
  return out;
}
