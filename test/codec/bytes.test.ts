/**
 * Strict hex / base64 (docs/protocol/blob-format.md §1: standard base64 with padding;
 * docs/protocol/contract-id.md §13: lower-case hex).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBase64, formatHex, parseBase64, parseHex } from '../../src/core/codec/index.js';
import { CodecError } from '../../src/errors/codec.js';

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof CodecError ? e.code : `not a CodecError: ${String(e)}`;
  }
  return 'no error';
};

describe('hex', () => {
  it('matches node:buffer on random bytes, both ways', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        const h = formatHex(b);
        expect(h).toBe(Buffer.from(b).toString('hex'));
        expect(parseHex(h)).toEqual(b);
      }),
    );
  });
  it('rejects upper case, odd length, prefixes and junk', () => {
    for (const bad of ['AB', 'abc', '0x00', 'zz', ' 00', '0g'])
      expect(code(() => parseHex(bad))).toBe('INVALID_HEX');
    expect(parseHex('')).toEqual(new Uint8Array(0));
  });
});

describe('base64', () => {
  it('matches node:buffer on random bytes, both ways', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        const s = formatBase64(b);
        expect(s).toBe(Buffer.from(b).toString('base64'));
        expect(parseBase64(s)).toEqual(b);
      }),
    );
  });
  it('rejects non-canonical, unpadded, url-safe, whitespace and misplaced padding', () => {
    for (const bad of ['QR==', 'QUI=x', 'QUJ', 'QU=I', '-_==', 'QU I=', 'QUJD\n', '====', 'Q===']) {
      expect(
        code(() => parseBase64(bad)),
        bad,
      ).toBe('INVALID_BASE64');
    }
    expect(parseBase64('QQ==')).toEqual(Uint8Array.from([0x41]));
  });
  it('refuses to allocate above maxBytes', () => {
    expect(code(() => parseBase64('A'.repeat(4 * 1000), 'x', 100))).toBe('BLOB_TOO_LARGE');
  });
  it('any string either parses to bytes that format back to it, or is a typed error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (s) => {
        try {
          expect(formatBase64(parseBase64(s))).toBe(s);
        } catch (e) {
          expect(e).toBeInstanceOf(CodecError);
        }
      }),
    );
  });
});
