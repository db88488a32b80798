/** Differential test: the portable sha256Noble against node:crypto (sha256Node), incl. subarray views. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { sha256Noble } from '../../src/core/hash/sha256.js';
import { sha256Node } from '../../src/io/node-sha256.js';

describe('sha256Noble vs node:crypto', () => {
  it('agrees on the empty input and the FIPS "abc" vector', () => {
    expect(bytesToHex(sha256Noble(new Uint8Array()))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(bytesToHex(sha256Node(new TextEncoder().encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
  it('agrees on random inputs (all block-boundary lengths 0..200 and random sizes)', () => {
    for (let n = 0; n <= 200; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(bytesToHex(sha256Noble(b))).toBe(bytesToHex(sha256Node(b)));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (b) => {
        expect(bytesToHex(sha256Noble(b))).toBe(createHash('sha256').update(b).digest('hex'));
      }),
      { numRuns: 200 },
    );
  });
  it('hashes only the viewed bytes of a subarray', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 600 }), fc.nat(), fc.nat(), (b, x, y) => {
        const start = x % b.length;
        const end = start + (y % (b.length - start + 1));
        const view = b.subarray(start, end);
        const want = createHash('sha256')
          .update(Buffer.from(b.slice(start, end)))
          .digest('hex');
        expect(bytesToHex(sha256Noble(view))).toBe(want);
        expect(bytesToHex(sha256Node(view))).toBe(want);
      }),
      { numRuns: 200 },
    );
  });
});
