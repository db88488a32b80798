/**
 * A growable protobuf writer for the encoders (docs/protocol/blob-format.md §4: fields in number order,
 * oneof members always written). Nested messages reserve one length byte and shift their content
 * when the length needs more, so no size pre-pass is needed.
 */
import { utf8Length, writeUtf8 } from './utf8.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT } from './wire-reader.js';

/** |v| ≤ 2^53 - 1: exact as a JS number. */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** zigzag doubles the magnitude, so stay within 2^52 for the number path */
const SAFE_HALF = SAFE / 2n;

export class WireWriter {
  private buf: Uint8Array;
  pos = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** Unsigned varint of a non-negative safe integer. */
  writeVarint(v: number): void {
    this.ensure(10);
    let n = v;
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  /** Varint of a 64-bit two's-complement value. */
  writeVarint64(v: bigint): void {
    this.ensure(10);
    let n = BigInt.asUintN(64, v);
    while (n >= 0x80n) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  writeTag(field: number, wire: number): void {
    this.writeVarint(field * 8 + wire);
  }

  /** int32 / enum / bool field: negative values are sign-extended to 10 bytes (protobuf int32). */
  writeVarintField(field: number, v: number): void {
    this.writeTag(field, WIRE_VARINT);
    if (v < 0) this.writeVarint64(BigInt(v));
    else this.writeVarint(v);
  }

  writeSint64Field(field: number, v: bigint): void {
    this.writeTag(field, WIRE_VARINT);
    if (v >= -SAFE_HALF && v <= SAFE_HALF) {
      const n = Number(v);
      this.writeVarint(n >= 0 ? n * 2 : -n * 2 - 1);
    } else this.writeVarint64(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  }

  writeSfixed64Field(field: number, v: bigint): void {
    this.writeTag(field, WIRE_I64);
    this.ensure(8);
    let lo: number;
    let hi: number;
    if (v >= -SAFE && v <= SAFE) {
      const n = Number(v);
      hi = Math.floor(n / 4294967296);
      lo = n - hi * 4294967296;
      hi = hi | 0;
    } else {
      const u = BigInt.asUintN(64, v);
      lo = Number(u & 0xffffffffn);
      hi = Number(u >> 32n) | 0;
    }
    const b = this.buf;
    let p = this.pos;
    b[p++] = lo & 255;
    b[p++] = (lo >>> 8) & 255;
    b[p++] = (lo >>> 16) & 255;
    b[p++] = (lo >>> 24) & 255;
    b[p++] = hi & 255;
    b[p++] = (hi >>> 8) & 255;
    b[p++] = (hi >>> 16) & 255;
    b[p++] = (hi >>> 24) & 255;
    this.pos = p;
  }

  writeBytesField(field: number, bytes: Uint8Array): void {
    this.writeTag(field, WIRE_LEN);
    this.writeVarint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** The caller checked `utf8Length(s) >= 0` (no lone surrogates). */
  writeStringField(field: number, s: string): void {
    const n = utf8Length(s);
    this.writeTag(field, WIRE_LEN);
    this.writeVarint(n);
    this.ensure(n);
    this.pos = writeUtf8(s, this.buf, this.pos);
  }

  /** Starts a length-delimited sub-message; returns a mark for `endMessage`. */
  beginMessage(field: number): number {
    this.writeTag(field, WIRE_LEN);
    this.ensure(1);
    this.buf[this.pos++] = 0;
    return this.pos;
  }

  /** Closes the sub-message begun at `mark`, writing its length (shifting the content if needed). */
  endMessage(mark: number): void {
    const len = this.pos - mark;
    if (len < 0x80) {
      this.buf[mark - 1] = len;
      return;
    }
    let extra = 0;
    for (let n = len; n >= 0x80; n = Math.floor(n / 0x80)) extra++;
    this.ensure(extra);
    this.buf.copyWithin(mark + extra, mark, this.pos);
    let p = mark - 1;
    let n = len;
    while (n >= 0x80) {
      this.buf[p++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[p] = n;
    this.pos += extra;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
