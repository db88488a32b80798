/**
 * The TS UTF-8 decoder and the native fatal TextDecoder path agree on every byte string
 * (docs/protocol/blob-format.md §3).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  decodeUtf8,
  decodeUtf8Ts,
  Utf8Cache,
  utf8Length,
  writeUtf8,
} from '../../src/core/codec/utf8.js';

const native = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ref = (b: Uint8Array): string | null => {
  try {
    return native.decode(b);
  } catch {
    return null;
  }
};

describe('utf8', () => {
  it('TS decoder = WHATWG fatal decoder on arbitrary bytes (with and without a string cache)', () => {
    const cache = new Utf8Cache();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        expect(decodeUtf8Ts(b, 0, b.length)).toBe(ref(b));
        expect(decodeUtf8(b, 0, b.length)).toBe(ref(b));
        expect(decodeUtf8(b, 0, b.length, null, cache)).toBe(ref(b));
      }),
      { numRuns: 3000 },
    );
  });
  it('round-trips arbitrary strings and keeps a BOM', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        const n = utf8Length(s);
        const buf = new Uint8Array(n);
        expect(writeUtf8(s, buf, 0)).toBe(n);
        expect(decodeUtf8Ts(buf, 0, n)).toBe(s);
        expect(decodeUtf8(buf, 0, n)).toBe(s);
      }),
    );
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new Array(20).fill(0x61)]);
    expect(decodeUtf8(bom, 0, bom.length)?.charCodeAt(0)).toBe(0xfeff);
  });
  it('a string-cache hit confirmed word-wise (DataView) never returns a different string', () => {
    // 40-char ASCII strings that differ only at index 3 (a byte the O(1) slot hash does not sample)
    // share a cache slot; an offset start checks the unaligned word reads too
    const enc = new TextEncoder();
    const cache = new Utf8Cache();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 40 }), (off, len) => {
        const a = 'party-abcdefghijklmnopqrstuvwxyz-0123456789'.slice(0, len);
        const b = `${a.slice(0, 3)}${a[3] === 'Z' ? 'Y' : 'Z'}${a.slice(4)}`.slice(0, len);
        for (const s of [a, b, a]) {
          const buf = new Uint8Array(off + len + 3);
          buf.set(enc.encode(s), off);
          const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
          expect(decodeUtf8(buf, off, off + len, view, cache)).toBe(s);
          expect(decodeUtf8(buf, off, off + len, null, cache)).toBe(s);
          expect(decodeUtf8(buf, off, off + len)).toBe(s);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('orders by code point (= UTF-8 byte order), not UTF-16 units', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        (a, b) => {
          const ea = Buffer.from(a, 'utf8');
          const eb = Buffer.from(b, 'utf8');
          expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(ea, eb)));
        },
      ),
      { numRuns: 2000 },
    );
    expect(compareCodePoints('\uffff', '\u{10000}')).toBeLessThan(0);
  });
});
