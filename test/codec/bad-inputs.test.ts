/**
 * Every case of the shared bad-input table must fail fast with its CodecError code
 * (docs/protocol/blob-format.md §2–§4).
 */
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { CodecError } from '../../src/errors/codec.js';
import { badBlobInputs, buildBlob, realParts } from '../helpers/bad-inputs.js';

describe('bad created_event_blob inputs', () => {
  it('the unmodified builder output decodes (the table starts from a valid blob)', () => {
    const c = decodeCreatedEventBlob(buildBlob(realParts()));
    expect(c.packageName).toBe('model-tests');
  });

  for (const bad of badBlobInputs()) {
    it(`${bad.name} → ${bad.code}`, () => {
      const start = performance.now();
      let caught: unknown;
      try {
        decodeCreatedEventBlob(bad.input, bad.options);
      } catch (e) {
        caught = e;
      }
      expect(caught, 'must throw').toBeInstanceOf(CodecError);
      expect((caught as CodecError).code, (caught as CodecError).message).toBe(bad.code);
      expect(performance.now() - start).toBeLessThan(500);
    });
  }
});
