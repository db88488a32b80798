/**
 * The byte-range validators (src/core/codec/validate-bytes.ts) agree with their string twins
 * (validate.ts) applied to the decoded range, and the byte-level numeric encoding
 * (HashBuilder.numericSmall) with numericUnscaledBytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, decodeUtf8 } from '../../src/core/codec/utf8.js';
import {
  checkNumeric,
  isDamlName,
  isPackageId,
  isPackageName,
  isPartyId,
} from '../../src/core/codec/validate.js';
import {
  compareByteRanges,
  isDamlNameBytes,
  isPackageIdBytes,
  isPackageNameBytes,
  isPartyIdBytes,
  isUtf8Bytes,
  numericDigitsBytes,
} from '../../src/core/codec/validate-bytes.js';
import { HashBuilder, numericUnscaledBytes } from '../../src/core/hash/hash-builder.js';

const enc = new TextEncoder();
/** strings near the grammars: their letters, digits, punctuation, a few non-ASCII chars */
const arbText = fc
  .array(fc.constantFrom(...'aZ_$09:- .\u00e9\u0144\u4e2d'.split(''), 'ab', 'f0'), { maxLength: 70 })
  .map((xs) => xs.join(''));
const arbNumeric = fc
  .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,20})$/), fc.stringMatching(/^[0-9]{0,25}$/))
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}.${f}`);

function bytesOf(s: string): Uint8Array {
  // padded on both sides: the ranges must not read outside [start, end)
  const b = enc.encode(s);
  const out = new Uint8Array(b.length + 4).fill(0x41);
  out.set(b, 2);
  return out;
}

describe('byte-range validators', () => {
  it('agree with the string rules', () => {
    fc.assert(
      fc.property(fc.oneof(arbText, fc.stringMatching(/^[0-9a-f]{64}$/), arbNumeric), (s) => {
        const b = bytesOf(s);
        const end = b.length - 2;
        expect(isPartyIdBytes(b, 2, end)).toBe(isPartyId(s));
        expect(isDamlNameBytes(b, 2, end)).toBe(isDamlName(s));
        expect(isPackageIdBytes(b, 2, end)).toBe(isPackageId(s));
        expect(isPackageNameBytes(b, 2, end)).toBe(isPackageName(s));
        expect(numericDigitsBytes(b, 2, end) >= 0).toBe(checkNumeric(s) === null);
        expect(isUtf8Bytes(b, 2, end)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('reject malformed UTF-8 as the decoder does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (b) => {
        expect(isUtf8Bytes(b, 0, b.length)).toBe(decodeUtf8(b, 0, b.length) !== null);
      }),
      { numRuns: 3000 },
    );
  });

  it('checks ASCII a word at a time with a view, with the same answers', () => {
    // mostly ASCII, a non-ASCII byte (valid or not) anywhere, any sub-range
    const arbBytes = fc.array(
      fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: 0, max: 0x7f }) },
        fc.integer({ min: 0x80, max: 0xff }),
      ),
      {
        maxLength: 80,
      },
    );
    fc.assert(
      fc.property(arbBytes, fc.nat(), fc.nat(), (xs, a, z) => {
        const b = Uint8Array.from(xs);
        const view = new DataView(b.buffer, b.byteOffset, b.length);
        const start = b.length === 0 ? 0 : a % b.length;
        const end = start + (b.length === 0 ? 0 : z % (b.length - start + 1));
        const want = decodeUtf8(b, start, end) !== null;
        expect(isUtf8Bytes(b, start, end, view)).toBe(want);
        expect(isUtf8Bytes(b, start, end)).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it('compare ranges in code-point order', () => {
    fc.assert(
      fc.property(arbText, arbText, (x, y) => {
        const a = enc.encode(x);
        const b = enc.encode(y);
        const both = new Uint8Array(a.length + b.length);
        both.set(a);
        both.set(b, a.length);
        const c = compareByteRanges(both, 0, a.length, a.length, both.length);
        expect(Math.sign(c)).toBe(Math.sign(compareCodePoints(x, y)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('HashBuilder.numericRange', () => {
  it('writes numeric(s) for every valid numeric', () => {
    const fixed = [
      '0.',
      '-0.0',
      '0.0000000000',
      '1.0',
      '-1.0',
      '127.',
      '128.',
      '-128.',
      '-129.',
      '32767.',
      '32768.',
      // the 32-bit halves and the 15-digit limit of the double path (smallNumeric)
      '4294967295.',
      '4294967296.',
      '-4294967296.',
      '-4294967297.',
      '140737488355327.',
      '140737488355328.',
      '-140737488355328.',
      '-140737488355329.',
      '999999999999999.',
      '-999999999999999.',
      '99999.9999999999',
      '1000000000000000.',
      '-1000000000000000.',
      '99999999999999999999999999999999999999.',
      '-99999999999999999999999999999999999999.',
    ];
    const check = (s: string) => {
      const b = bytesOf(s);
      const digits = numericDigitsBytes(b, 2, b.length - 2);
      if (digits < 0) return;
      const got = new HashBuilder(16);
      const zero = got.numericRange(b, 2, b.length - 2);
      const want = new HashBuilder(16).numeric(s);
      expect(Array.from(got.bytes()), s).toEqual(Array.from(want.bytes()));
      const u = numericUnscaledBytes(s);
      expect(zero, s).toBe(u.length === 1 && u[0] === 0);
    };
    for (const s of fixed) check(s);
    fc.assert(fc.property(arbNumeric, check), { numRuns: 5000 });
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), fc.nat(15), (n, k) => {
        const digits = Math.abs(n)
          .toString()
          .padStart(k + 1, '0');
        const s = `${n < 0 ? '-' : ''}${digits.slice(0, digits.length - k)}.${digits.slice(digits.length - k)}`;
        if (checkNumeric(s) === null) check(s);
      }),
      { numRuns: 5000 },
    );
  });
});
