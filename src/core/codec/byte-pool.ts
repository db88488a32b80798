/**
 * A bump allocator for the decoder's and verifier's byte arrays (performance only; no spec rule).
 *
 * V8 keeps a typed array of at most 64 bytes on the JS heap (cheap, ~0.1 µs), but gives every
 * larger one its own off-heap ArrayBuffer: ~2–5 µs per allocation on the benchmark machine, as
 * much as one SHA-256 of a whole blob. `allocBytes` instead carves arrays of 65..4096 bytes out of
 * a shared 32 KiB slab, as Node's `Buffer` pool does. Every region is handed out once and never
 * reused, so no two results alias; a region keeps its slab alive (at most 32 KiB per live result).
 * The returned array is zero-filled (a fresh slab is) and its `.buffer` is the slab.
 */

const SLAB_SIZE = 32 * 1024;
/** Larger requests get their own buffer (as before). */
const MAX_POOLED = 4096;
/** Up to this size V8 allocates on the JS heap, which is already cheap. */
const MAX_ON_HEAP = 64;

let slab = new Uint8Array(SLAB_SIZE);
let offset = 0;

/** A fresh, zero-filled, private array of `n` bytes (see the module comment for its `.buffer`). */
export function allocBytes(n: number): Uint8Array {
  if (n <= MAX_ON_HEAP || n > MAX_POOLED) return new Uint8Array(n);
  if (offset + n > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    offset = 0;
  }
  const out = slab.subarray(offset, offset + n);
  // 8-byte alignment keeps later DataView/Float64Array views of a region possible
  offset = (offset + n + 7) & ~7;
  return out;
}

/** A private copy of `src` (from the pool when it fits). */
export function copyBytes(src: Uint8Array): Uint8Array {
  const out = allocBytes(src.length);
  out.set(src);
  return out;
}
