/**
 * The reserve profile's fields read straight from the create argument's bytes, where the verdict
 * engine found it (src/core/verdict/engine.ts `BlobSpans`): a shallow scan of the top-level record
 * to the field indexes of the template's plan (./template-plan.ts), and only those few values turned
 * into strings. Used by the proof step's verdict detail (./reserve-proof.ts) on a contract the
 * engine verified, so every length is already known to be in bounds; anything unexpected gives null
 * and the full step reads the fields from the decoded contract instead.
 */
import { CURRENT_VALUE } from '../codec/schema.js';
import { decodeUtf8, type Utf8Cache } from '../codec/utf8.js';
import { WIRE_LEN } from '../codec/wire-reader.js';
import type { ProvenFields } from './profile.js';
import type { FieldSlot } from './template-plan.js';

const L = CURRENT_VALUE;
const K_NUMERIC = 6;
const K_PARTY = 7;
const K_TEXT = 8;
const K_RECORD = 13;
const TAG_RECORD = (((L.fieldByKind[K_RECORD] as number) << 3) | WIRE_LEN) >>> 0;
const TAG_FIELD = ((L.recordFields << 3) | WIRE_LEN) >>> 0;
const TAG_FIELD_VALUE = ((L.fieldValue << 3) | WIRE_LEN) >>> 0;
/** at most this many top-level fields are located (a profile's index beyond: the full step) */
const MAX_FIELDS = 256;

/** Reads profile fields from create-argument bytes; holds its scratch (one per caller context). */
export class FieldReader {
  /** [start, stop) of each top-level field's Value message */
  private readonly spans = new Int32Array(2 * MAX_FIELDS);
  /** where the content after the last length read starts */
  private at = 0;

  /** `strings`: the string cache the reader decodes through (a ProofContext shares its decoder's) */
  constructor(private readonly strings: Utf8Cache | null = null) {}

  /**
   * The profile's fields (`slots`) of the record Value at `buf[argAt, argStop)`, or null where the
   * full step's extraction would fail or this scan does not answer.
   */
  readFields(
    buf: Uint8Array,
    argAt: number,
    argStop: number,
    slots: readonly FieldSlot[],
  ): ProvenFields | null {
    const n = this.locateFields(buf, argAt, argStop);
    if (n < 0) return null;
    const out: Record<string, unknown> = { poolId: null, tokenA: null, tokenB: null, feeRate: null };
    for (const s of slots) {
      if (s.index >= n) return null;
      const v = this.spans[2 * s.index] as number;
      const stop = this.spans[2 * s.index + 1] as number;
      const value =
        s.type === 'Numeric'
          ? this.stringAt(buf, v, stop, K_NUMERIC)
          : s.type === 'Text'
            ? this.stringAt(buf, v, stop, K_TEXT)
            : this.instrumentAt(buf, v, stop);
      if (value === null) return null;
      out[s.key] = value;
    }
    return out as unknown as ProvenFields;
  }

  /** A length (varint of at most 5 bytes) at `p`; sets `at` to the content after it; -1 if longer. */
  private lengthAt(buf: Uint8Array, p: number): number {
    let b = buf[p] as number;
    if (b < 0x80) {
      this.at = p + 1;
      return b;
    }
    let n = b & 0x7f;
    let shift = 7;
    for (let i = 1; i < 5; i++) {
      b = buf[p + i] as number;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) {
        this.at = p + i + 1;
        return n;
      }
      shift += 7;
    }
    return -1;
  }

  /** Records the Value span of each top-level field of the record; the number of fields, or -1. */
  private locateFields(buf: Uint8Array, argAt: number, argStop: number): number {
    if (buf[argAt] !== TAG_RECORD) return -1;
    const len = this.lengthAt(buf, argAt + 1);
    if (len < 0 || this.at + len !== argStop) return -1;
    let p = this.at;
    let n = 0;
    while (p < argStop) {
      if (n === MAX_FIELDS || buf[p] !== TAG_FIELD) return -1;
      const fLen = this.lengthAt(buf, p + 1);
      const fStop = this.at + fLen;
      if (fLen < 0 || buf[this.at] !== TAG_FIELD_VALUE) return -1;
      const vLen = this.lengthAt(buf, this.at + 1);
      if (vLen < 0 || this.at + vLen !== fStop) return -1;
      this.spans[2 * n] = this.at;
      this.spans[2 * n + 1] = fStop;
      n++;
      p = fStop;
    }
    return n;
  }

  /** The kind of the Value message at `buf[v, stop)` (its content from `at`), or 0. */
  private kindAt(buf: Uint8Array, v: number, stop: number): number {
    const tag = buf[v] as number;
    if (tag >= 0x80 || (tag & 7) !== WIRE_LEN) return 0;
    const kind = L.kindByField[tag >>> 3] ?? 0;
    const len = this.lengthAt(buf, v + 1);
    return len >= 0 && this.at + len === stop ? kind : 0;
  }

  /** The string of a Value of kind `want` at `buf[v, stop)`, or null. */
  private stringAt(buf: Uint8Array, v: number, stop: number, want: number): string | null {
    if (this.kindAt(buf, v, stop) !== want) return null;
    return decodeUtf8(buf, this.at, stop, null, this.strings);
  }

  /** An InstrumentId record {admin: Party, id: Text} at `buf[v, stop)` as a token key, or null. */
  private instrumentAt(buf: Uint8Array, v: number, stop: number): { admin: string; id: string } | null {
    if (this.kindAt(buf, v, stop) !== K_RECORD) return null;
    const vals: number[] = [];
    let p = this.at;
    while (p < stop) {
      if (vals.length === 4 || buf[p] !== TAG_FIELD) return null;
      const fLen = this.lengthAt(buf, p + 1);
      const fStop = this.at + fLen;
      if (fLen < 0 || buf[this.at] !== TAG_FIELD_VALUE) return null;
      const vLen = this.lengthAt(buf, this.at + 1);
      if (vLen < 0 || this.at + vLen !== fStop) return null;
      vals.push(this.at, fStop);
      p = fStop;
    }
    if (vals.length !== 4) return null;
    const admin = this.stringAt(buf, vals[0] as number, vals[1] as number, K_PARTY);
    const id = admin === null ? null : this.stringAt(buf, vals[2] as number, vals[3] as number, K_TEXT);
    return admin === null || id === null ? null : { admin, id };
  }
}
