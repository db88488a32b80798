/**
 * Reading compact blobs without a zlib object per blob (src/io/store/blob-codec.ts,
 * `decodeStoredBlobInto`, and the batches built with it): the bytes are node:zlib's for every stream
 * our writer produces and for every mutated stream zlib accepts (a differential test against
 * `inflateRawSync`); a stream that inflates past the limit, an empty one, a truncated one and one
 * with an invalid block type are STORE_CORRUPT; the window of the caller's buffer is the only part
 * written; large stored forms take zlib's path with the same result.
 */
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeStoredBlob,
  decodeStoredBlobInto,
  encodeStoredBlob,
  MAX_BLOB_BYTES,
} from '../../src/io/store/blob-codec.js';
import { batchBlob, packContractBatch } from '../../src/io/store/contract-batches.js';

/** A dictionary and a later "version" of it: a few fields changed, as consecutive reserve contracts. */
const versionOf = (dict: Uint8Array, seed: number): Buffer => {
  const b = Buffer.from(dict);
  for (let i = 0; i < 6; i++) b[(seed * 31 + i * 97) % b.length] = (seed + i) & 0xff;
  return Buffer.concat([b, Buffer.from(`${seed}.0000000000`)]);
};

const window = (): Uint8Array => new Uint8Array(MAX_BLOB_BYTES + 1 + 4096);

const zlibOf = (stored: Uint8Array, dict: Uint8Array): Buffer | null => {
  try {
    return inflateRawSync(stored, { dictionary: dict, maxOutputLength: MAX_BLOB_BYTES });
  } catch {
    return null;
  }
};

describe('inflating stored blobs into a buffer', () => {
  it('gives zlib’s bytes for every stream the writer produces (random dictionaries and versions)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 2_000 }), fc.nat(10_000), (dict, seed) => {
        const blob = versionOf(dict, seed);
        const stored = encodeStoredBlob(blob, dict);
        if (stored === null) return;
        const out = window();
        const n = decodeStoredBlobInto('c', stored, 1, dict, out, 17);
        expect(Buffer.from(out.subarray(17, 17 + n)).equals(blob)).toBe(true);
        expect(Buffer.from(decodeStoredBlob('c', stored, 1, dict)).equals(blob)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with zlib on every mutated stream zlib accepts; what neither accepts is STORE_CORRUPT', () => {
    const dict = randomBytes(450);
    const stored = encodeStoredBlob(versionOf(dict, 3), dict) as Buffer;
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat(stored.length - 1), fc.nat(255), fc.nat(3), (at, byte, how) => {
        const bad = Buffer.from(stored);
        bad[at] = byte;
        const s = how === 0 ? bad.subarray(0, at) : bad;
        const z = zlibOf(s, dict);
        const out = window();
        let n: number | null = null;
        try {
          n = decodeStoredBlobInto('cid-m', s, 1, dict, out, 0);
        } catch (e) {
          expect(e).toMatchObject({ code: 'STORE_CORRUPT', message: expect.stringContaining('cid-m') });
        }
        if (z !== null) {
          accepted++;
          expect(n).not.toBeNull();
          expect(Buffer.from(out.subarray(0, n ?? 0)).equals(z)).toBe(true);
        } else if (n === null) refused++;
      }),
      { numRuns: 1_000 },
    );
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('refuses an empty, a truncated, a bad-block-type and an over-limit stream; writes only its window', () => {
    const dict = randomBytes(450);
    const stored = encodeStoredBlob(versionOf(dict, 5), dict) as Buffer;
    const corrupt = (s: Uint8Array): void => {
      const out = window().fill(7);
      expect(() => decodeStoredBlobInto('cid-x', s, 1, dict, out, 0)).toThrow(
        expect.objectContaining({ code: 'STORE_CORRUPT', message: expect.stringContaining('cid-x') }),
      );
    };
    corrupt(new Uint8Array(0));
    corrupt(stored.subarray(0, 3));
    corrupt(Buffer.from([0xff, 0xff, 0xff, 0xff]));
    // 2 MiB of zeros deflate to ~2 KiB: past the limit, refused like zlib's maxOutputLength
    const bomb = deflateRawSync(Buffer.alloc(2 * MAX_BLOB_BYTES), { level: constants.Z_BEST_COMPRESSION });
    expect(bomb.length).toBeLessThan(16 << 10);
    corrupt(bomb);
    expect(() => decodeStoredBlob('cid-x', bomb, 1, dict)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
    // the caller's bytes outside the blob's window are untouched
    const out = new Uint8Array(2 * MAX_BLOB_BYTES + 100).fill(9);
    expect(() => decodeStoredBlobInto('cid-x', bomb, 1, dict, out, 50)).toThrow();
    expect(out.subarray(0, 50).every((b) => b === 9)).toBe(true);
    expect(out.subarray(50 + MAX_BLOB_BYTES + 1).every((b) => b === 9)).toBe(true);
  });

  it('a large stored form takes zlib’s path: the same bytes, the same limit', () => {
    const dict = randomBytes(300);
    const blob = Buffer.concat([dict, randomBytes(40_000)]);
    const stored = encodeStoredBlob(blob, dict) as Buffer;
    expect(stored.length).toBeGreaterThan(16 << 10);
    const out = window();
    const n = decodeStoredBlobInto('c', stored, 1, dict, out, 3);
    expect(Buffer.from(out.subarray(3, 3 + n)).equals(blob)).toBe(true);
    const big = deflateRawSync(Buffer.concat([randomBytes(20_000), Buffer.alloc(2 * MAX_BLOB_BYTES)]));
    expect(big.length).toBeGreaterThan(16 << 10);
    expect(() => decodeStoredBlobInto('c', big, 1, dict, out, 0)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
  });

  it('packs a batch of raw and compressed rows into its own buffer, batch after batch', () => {
    const dict = randomBytes(450);
    const blobs = Array.from({ length: 40 }, (_, i) =>
      i % 5 === 0 ? randomBytes(300 + i) : versionOf(dict, i),
    );
    const rows = blobs.map((blob, i) => {
      const stored = i % 5 === 0 ? null : encodeStoredBlob(blob, dict);
      return [`cid-${i}`, 'pool', stored ?? blob, '1', '2', '3', stored === null ? null : 4, i + 1, dict];
    });
    const a = packContractBatch(rows.slice(0, 25));
    const b = packContractBatch(rows.slice(25));
    expect(a.blobs.buffer).not.toBe(b.blobs.buffer);
    expect(a.blobs.byteLength).toBe(a.blobs.buffer.byteLength); // transferable, nothing else in it
    const got = [
      ...a.contractIds.map((_, i) => batchBlob(a, i)),
      ...b.contractIds.map((_, i) => batchBlob(b, i)),
    ];
    got.forEach((g, i) => {
      expect(Buffer.from(g).equals(blobs[i] as Buffer)).toBe(true);
    });
    expect(b.contractKeys).toEqual(Array.from({ length: 15 }, (_, i) => 26 + i));
  });
});
