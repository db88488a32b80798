/** 10,000 mutated real blobs → a CodecError or a valid decode, never anything else (the 20,000 run is in test/slow). */
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { CodecError } from '../../src/errors/codec.js';
import { mutate, realBlobs, runBlobFuzz } from '../helpers/blob-fuzz.js';

describe('blob mutation fuzzing', () => {
  it('10,000 mutated real blobs: CodecError or a valid decode', () => {
    const stats = runBlobFuzz(10_000);
    const rejected = Object.values(stats.rejected).reduce((a, b) => a + b, 0);
    expect(stats.decoded + rejected).toBe(10_000);
    expect(rejected).toBeGreaterThan(5000); // most mutations must be caught
  });

  it('every truncation of every real blob is rejected with a CodecError', () => {
    for (const blob of realBlobs) {
      for (let n = 0; n < blob.length; n++) {
        expect(() => decodeCreatedEventBlob(blob.subarray(0, n))).toThrow(CodecError);
      }
    }
  });

  it('mutate() really changes blobs', () => {
    expect(mutate(realBlobs[0]!, [{ op: 'flip', at: 0, bit: 0 }])[0]).toBe(0x0b);
  });
});
