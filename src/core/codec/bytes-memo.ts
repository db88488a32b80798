/**
 * A small, bounded memo keyed by byte strings, for lookups made from a blob's bytes
 * (src/core/hash/template-of-bytes.ts, src/core/proof/template-plan.ts): template identifiers recur
 * in every blob of a ledger, so what they resolve to is remembered by their bytes instead of being
 * worked out again per blob.
 *
 * Direct-mapped: a key's slot comes from a cheap hash (length, first, middle and last bytes), and
 * a lookup answers only when the stored key is byte-for-byte the probed range — compared in 32-bit
 * words through DataViews —, so two keys with the same hash can never stand for each other
 * (test/codec/bytes-memo.test.ts). A new key in a taken slot replaces the old one: the memory is
 * bounded by `slots × maxKeyBytes`. Single-threaded scratch state, like the rest of the one pass.
 */

export class BytesMemo<T> {
  private readonly mask: number;
  private readonly keys: (Uint8Array | null)[];
  private readonly views: (DataView | null)[];
  private readonly values: (T | undefined)[];
  private readonly maxKeyBytes: number;

  /** `slots`: a power of two; keys longer than `maxKeyBytes` are never stored */
  constructor(slots: number, maxKeyBytes: number) {
    if (slots <= 0 || (slots & (slots - 1)) !== 0) throw new RangeError('slots must be a power of two');
    this.mask = slots - 1;
    this.keys = new Array<Uint8Array | null>(slots).fill(null);
    this.views = new Array<DataView | null>(slots).fill(null);
    this.values = new Array<T | undefined>(slots).fill(undefined);
    this.maxKeyBytes = maxKeyBytes;
  }

  private slotOf(buf: Uint8Array, start: number, end: number): number {
    const n = end - start;
    if (n === 0) return 0;
    const h =
      Math.imul(n, 0x9e3779b1) ^
      Math.imul(buf[start] as number, 0x85ebca6b) ^
      Math.imul(buf[end - 1] as number, 0xc2b2ae35) ^
      Math.imul(buf[start + (n >> 1)] as number, 0x27d4eb2f);
    return (h ^ (h >>> 15)) & this.mask;
  }

  /**
   * The value stored under exactly the bytes `buf[start, end)` (`view`: a DataView of all of
   * `buf`'s bytes, as `new DataView(buf.buffer, buf.byteOffset, buf.length)`), or undefined.
   */
  get(buf: Uint8Array, view: DataView, start: number, end: number): T | undefined {
    const slot = this.slotOf(buf, start, end);
    const key = this.keys[slot];
    if (key === null || key === undefined) return undefined;
    const n = end - start;
    if (key.length !== n) return undefined;
    const kv = this.views[slot] as DataView;
    let i = 0;
    for (; i + 4 <= n; i += 4) if (view.getInt32(start + i) !== kv.getInt32(i)) return undefined;
    for (; i < n; i++) if (buf[start + i] !== key[i]) return undefined;
    return this.values[slot];
  }

  /** Remembers `value` under a copy of `buf[start, end)` (not stored when longer than maxKeyBytes). */
  set(buf: Uint8Array, start: number, end: number, value: T): void {
    if (end - start > this.maxKeyBytes) return;
    const slot = this.slotOf(buf, start, end);
    const key = buf.slice(start, end);
    this.keys[slot] = key;
    this.views[slot] = new DataView(key.buffer, key.byteOffset, key.length);
    this.values[slot] = value;
  }
}
