/** Slow suite: decode(encode(x)) = x over 5,000 arbitrary contracts and 10,000 arbitrary values. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeCreatedEventBlob,
  decodeValue,
  encodeCreatedEventBlob,
  encodeValue,
} from '../../src/core/codec/index.js';
import { arbDecodedContract, arbValue } from '../helpers/arbitraries.js';

describe('codec round trip (slow)', () => {
  it('10,000 values', () => {
    fc.assert(
      fc.property(arbValue, (v) => {
        expect(decodeValue(encodeValue(v))).toEqual(v);
      }),
      { numRuns: 10_000 },
    );
  }, 300_000);
  it('5,000 contracts', () => {
    fc.assert(
      fc.property(arbDecodedContract, (c) => {
        expect(decodeCreatedEventBlob(encodeCreatedEventBlob(c))).toEqual(c);
      }),
      { numRuns: 5_000 },
    );
  }, 300_000);
});
