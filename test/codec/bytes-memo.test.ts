/**
 * The byte-keyed memo of the one-pass verifier (src/core/codec/bytes-memo.ts) and the remembered
 * party check built on it: a lookup answers only for byte-for-byte the stored key, so a hostile
 * range that shares a valid one's slot (same length, first, middle and last bytes) is never taken
 * for it, and the remembered check agrees with the per-byte one on every input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BytesMemo } from '../../src/core/codec/bytes-memo.js';

const enc = new TextEncoder();
function padded(s: string): { buf: Uint8Array; view: DataView; start: number; end: number } {
  const b = enc.encode(s);
  const buf = new Uint8Array(b.length + 6).fill(0x41);
  buf.set(b, 3);
  return { buf, view: new DataView(buf.buffer), start: 3, end: 3 + b.length };
}

describe('BytesMemo', () => {
  it('answers only for exactly the stored bytes', () => {
    const m = new BytesMemo<string>(4, 64);
    const a = padded('Alice::1220abcdef');
    m.set(a.buf, a.start, a.end, 'alice');
    expect(m.get(a.buf, a.view, a.start, a.end)).toBe('alice');
    // same length, first, middle and last bytes: the same slot, another key
    for (const other of [
      'Alice::1220abXdef',
      'AXice::1220abcdef',
      'Alice::1220abXXef',
      'Alice::1220abc\u00e9f',
    ]) {
      const o = padded(other);
      expect(m.get(o.buf, o.view, o.start, o.end)).toBeUndefined();
    }
    // a prefix, a longer key, the empty range
    const p = padded('Alice::1220abcde');
    expect(m.get(p.buf, p.view, p.start, p.end)).toBeUndefined();
    const l = padded('Alice::1220abcdeff');
    expect(m.get(l.buf, l.view, l.start, l.end)).toBeUndefined();
    expect(m.get(a.buf, a.view, a.start, a.start)).toBeUndefined();
  });

  it('is bounded: keys above maxKeyBytes are not stored, a slot holds one key', () => {
    const m = new BytesMemo<number>(1, 8);
    const long = padded('123456789');
    m.set(long.buf, long.start, long.end, 1);
    expect(m.get(long.buf, long.view, long.start, long.end)).toBeUndefined();
    const x = padded('abc');
    const y = padded('abd');
    m.set(x.buf, x.start, x.end, 1);
    m.set(y.buf, y.start, y.end, 2);
    expect(m.get(x.buf, x.view, x.start, x.end)).toBeUndefined();
    expect(m.get(y.buf, y.view, y.start, y.end)).toBe(2);
  });

  it('agrees with a Map on random keys (all lengths, word tails)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 40 }), (keys) => {
        const m = new BytesMemo<number>(8, 64);
        const last = new Map<string, number>();
        keys.forEach((k, i) => {
          const buf = new Uint8Array(k.length + 2);
          buf.set(k, 1);
          m.set(buf, 1, 1 + k.length, i);
          last.set(k.join(','), i);
        });
        for (const k of keys) {
          const buf = new Uint8Array(k.length + 5);
          buf.set(k, 3);
          const got = m.get(buf, new DataView(buf.buffer), 3, 3 + k.length);
          // a hit is always the value last stored under these very bytes
          if (got !== undefined) expect(got).toBe(last.get(k.join(',')));
        }
      }),
    );
  });
});
