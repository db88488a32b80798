/**
 * hexEqualsRange (src/core/hash/hex.ts), the one pass's check that the blob embeds the published
 * contract ID: the same answer as comparing with bytesToHex, for the hex of the range itself, the
 * same hex with one character changed (to another hex digit, upper case, a non-ASCII or astral
 * character), odd lengths, ranges past the end, and strings longer than its 256-character scratch.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { bytesToHex, hexEqualsRange } from '../../src/core/hash/hex.js';

const reference = (s: string, buf: Uint8Array, start: number): boolean =>
  s.length % 2 === 0 &&
  start + s.length / 2 <= buf.length &&
  bytesToHex(buf.subarray(start, start + s.length / 2)) === s;

it('agrees with comparing bytesToHex, with and without its scratch', () => {
  const change = fc.constantFrom('0', 'f', 'A', 'F', 'g', 'é', '\u0100', '😀', '');
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 0, maxLength: 200 }),
      fc.nat(),
      fc.nat(),
      fc.option(fc.tuple(fc.nat(), change), { freq: 2 }),
      (buf, a, len, edit) => {
        const start = buf.length === 0 ? 0 : a % (buf.length + 1);
        const n = buf.length - start <= 0 ? 0 : len % (buf.length - start + 2); // may run one past the end
        let s = bytesToHex(buf.subarray(start, Math.min(buf.length, start + n)));
        if (n > buf.length - start) s += '00';
        if (edit !== null && s.length > 0) {
          const [at, c] = edit;
          const i = at % s.length;
          s = s.slice(0, i) + c + s.slice(i + 1);
        }
        expect(hexEqualsRange(s, buf, start)).toBe(reference(s, buf, start));
      },
    ),
    { numRuns: 10_000 },
  );
  // a contract ID (138 characters) and a string beyond the scratch
  const id = Uint8Array.from({ length: 69 }, (_, i) => (i * 37) & 0xff);
  expect(hexEqualsRange(bytesToHex(id), id, 0)).toBe(true);
  expect(hexEqualsRange(bytesToHex(id).toUpperCase(), id, 0)).toBe(false);
  const long = Uint8Array.from({ length: 300 }, (_, i) => (i * 11) & 0xff);
  expect(hexEqualsRange(bytesToHex(long), long, 0)).toBe(true);
  expect(hexEqualsRange(`${bytesToHex(long).slice(0, 599)}0`, long, 0)).toBe(
    reference(`${bytesToHex(long).slice(0, 599)}0`, long, 0),
  );
});
