/** Slow suite: 20,000 mutated real blobs plus random byte strings → CodecError or a valid decode. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob, decodeValue } from '../../src/core/codec/index.js';
import { CodecError } from '../../src/errors/codec.js';
import { runBlobFuzz } from '../helpers/blob-fuzz.js';

describe('codec fuzzing (slow)', () => {
  it('20,000 mutated real blobs', () => {
    const stats = runBlobFuzz(20_000);
    const rejected = Object.values(stats.rejected).reduce((a, b) => a + b, 0);
    expect(stats.decoded + rejected).toBe(20_000);
  }, 300_000);

  it('20,000 random byte strings as blobs and as values', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        for (const f of [
          () => decodeCreatedEventBlob(bytes),
          () => decodeValue(bytes),
          () => decodeValue(bytes, { layout: 'legacy' }),
        ]) {
          try {
            f();
          } catch (e) {
            if (!(e instanceof CodecError)) throw e;
          }
        }
      }),
      { numRuns: 20_000 },
    );
  }, 300_000);
});
