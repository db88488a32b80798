/** The decoder's byte pool (src/core/codec/byte-pool.ts): zeroed, private, never aliasing regions. */
import { describe, expect, it } from 'vitest';
import { allocBytes, BytePool, copyBytes } from '../../src/core/codec/byte-pool.js';

describe('byte pool', () => {
  it('hands out zero-filled regions of the requested size that never overlap', () => {
    const sizes = [
      1, 64, 65, 69, 100, 1953, 4096, 4097, 70, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000,
      3000, 3000,
    ];
    const pool = new BytePool();
    const got = [...sizes.map((n) => allocBytes(n, pool)), ...sizes.map((n) => allocBytes(n))];
    sizes.push(...sizes);
    got.forEach((a, i) => {
      expect(a.length).toBe(sizes[i]);
      expect(a.every((x) => x === 0)).toBe(true);
    });
    // writing every region fully does not change any other region (no aliasing, also across slabs)
    for (const [i, a] of got.entries()) a.fill((i % 250) + 1);
    for (const [i, a] of got.entries()) expect(a.every((x) => x === (i % 250) + 1)).toBe(true);
  });

  it('copyBytes returns an equal copy independent of its source', () => {
    for (const n of [0, 10, 69, 2000, 5000]) {
      const src = Uint8Array.from({ length: n }, (_, i) => (i * 31) & 255);
      for (const c of [copyBytes(src), copyBytes(src, new BytePool())]) expect(c).toEqual(src);
      const c = copyBytes(src, new BytePool());
      src.fill(7);
      expect(c.every((x, i) => x === ((i * 31) & 255))).toBe(true);
    }
  });
});
