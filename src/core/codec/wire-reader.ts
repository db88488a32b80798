/**
 * A bounds-checked protobuf wire walker (protobuf encoding: varint, 64-bit, length-delimited, 32-bit)
 * used by the blob and value decoders (docs/protocol/blob-format.md §2–§3). Every read takes the end of the
 * enclosing message, so a length prefix can never reach past its parent, and nothing is allocated
 * before a length is checked against the bytes that remain. All failures are `CodecError`s.
 */
import { CodecError, type CodecErrorCode } from '../../errors/codec.js';
import type { UnknownFieldReport } from './contract.js';
import type { DecodeScratch } from './decode-scratch.js';
import { decodeUtf8, type Utf8Cache } from './utf8.js';

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

const TWO_32 = 4294967296;

export class WireReader {
  readonly buf: Uint8Array;
  pos: number;
  /** low / high 32 bits of the last varint read by `readVarint64` */
  lo = 0;
  hi = 0;
  /** the offset of the tag `nextTag` read last: where a field's error points */
  tagAt = 0;
  /** null = reject unknown fields; an array = skip and report them */
  readonly unknown: UnknownFieldReport[] | null;

  /** a declared length above this can never be valid (the input is limited to it) */
  readonly maxBytes: number;
  /** DataView over `buf`, made on the first string read (word-wise string-cache checks) */
  private view: DataView | null = null;

  /** the caller's caches (string cache, checked parties), or null */
  readonly scratch: DecodeScratch | null;
  /** the scratch's string cache, or null */
  private readonly strings: Utf8Cache | null;

  constructor(
    buf: Uint8Array,
    unknown: UnknownFieldReport[] | null,
    maxBytes: number,
    scratch: DecodeScratch | null = null,
  ) {
    this.buf = buf;
    this.scratch = scratch;
    this.strings = scratch === null ? null : scratch.strings;
    this.maxBytes = maxBytes;
    this.pos = 0;
    this.unknown = unknown;
  }

  fail(code: CodecErrorCode, message: string, offset = this.pos): never {
    throw new CodecError(code, message, { details: { offset } });
  }

  private endOfData(end: number, what: string, start: number): never {
    if (end >= this.buf.length) {
      this.fail(
        'BLOB_TRUNCATED',
        `${what} expected more bytes, got the end of the input at offset ${end}`,
        start,
      );
    }
    this.fail(
      'BLOB_TRUNCATED',
      `${what} expected more bytes, got the end of its message at offset ${end}`,
      start,
    );
  }

  /** Reads a varint into `lo`/`hi` (unsigned 64-bit). */
  readVarint64(end: number, what: string): void {
    const buf = this.buf;
    const start = this.pos;
    let p = start;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (p >= end) this.endOfData(end, what, start);
      const b = buf[p++]!;
      if (i < 4) lo |= (b & 0x7f) << (7 * i);
      else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi = (b & 0x7f) >> 4;
      } else if (i < 9) hi |= (b & 0x7f) << (7 * i - 32);
      else if (b > 1) {
        this.fail('BLOB_VARINT_OVERFLOW', `${what} expected a varint of at most 64 bits, got more`, start);
      } else hi |= b << 31;
      if (b < 0x80) {
        this.pos = p;
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    this.fail('BLOB_VARINT_OVERFLOW', `${what} expected a varint of at most 10 bytes, got more`, start);
  }

  /** Reads a field tag; returns `field << 3 | wireType` as a non-negative number. */
  readTag(end: number): number {
    const p = this.pos;
    const b = this.buf[p];
    // the common one-byte tag stays small enough to be inlined; the rest is readTagSlow
    if (b !== undefined && b < 0x80 && b >= 8 && p < end) {
      this.pos = p + 1;
      return b;
    }
    return this.readTagSlow(end);
  }

  private readTagSlow(end: number): number {
    const b = this.buf[this.pos];
    let tag: number;
    if (b !== undefined && b < 0x80 && this.pos < end) {
      this.pos++;
      tag = b;
    } else {
      const start = this.pos;
      this.readVarint64(end, 'field tag');
      if (this.hi !== 0 || this.lo >= 0x100000000) {
        this.fail(
          'BLOB_INVALID_TAG',
          `field tag expected a field number below 2^29, got a larger one`,
          start,
        );
      }
      tag = this.lo;
    }
    if (tag >>> 3 === 0)
      this.fail('BLOB_INVALID_TAG', `field tag expected a field number ≥ 1, got 0`, this.pos - 1);
    return tag;
  }

  /**
   * Reads a length prefix and checks it against the bytes left before `end`; returns the content end.
   * A length that runs past the end of the input (but not above `maxBytes`) means the input was cut:
   * `BLOB_TRUNCATED`. A length that overruns its enclosing message, or exceeds `maxBytes`:
   * `BLOB_LENGTH_OUT_OF_RANGE`. Nothing is allocated before this check.
   */
  readLength(end: number, what: string): number {
    const p = this.pos;
    const b = this.buf[p];
    // the common one-byte length that fits stays small enough to be inlined; the rest is readLengthSlow
    if (b !== undefined && b < 0x80 && p + 1 + b <= end) {
      this.pos = p + 1;
      return p + 1 + b;
    }
    return this.readLengthSlow(end, what);
  }

  private readLengthSlow(end: number, what: string): number {
    const start = this.pos;
    const b = this.buf[start];
    let len: number;
    if (b !== undefined && b < 0x80 && start < end) {
      this.pos = start + 1;
      len = b;
    } else {
      this.readVarint64(end, what);
      len = this.hi !== 0 ? Number.POSITIVE_INFINITY : this.lo;
    }
    const stop = this.pos + len;
    if (stop > end) {
      const lenText = this.hi !== 0 && len === Number.POSITIVE_INFINITY ? '≥ 2^32' : String(len);
      if (stop > this.buf.length && len <= this.maxBytes) {
        this.fail(
          'BLOB_TRUNCATED',
          `${what} expected ${lenText} bytes, got only ${this.buf.length - this.pos} before the end of the input`,
          start,
        );
      }
      this.fail(
        'BLOB_LENGTH_OUT_OF_RANGE',
        `${what} expected at most ${end - this.pos} bytes (what is left of its message), got a length of ${lenText}`,
        start,
      );
    }
    return stop;
  }

  /** A varint that must be a signed 32-bit integer (proto int32 / enum). */
  readInt32(end: number, what: string): number {
    const start = this.pos;
    this.readVarint64(end, what);
    const { lo, hi } = this;
    if (hi === 0 && lo < 0x80000000) return lo;
    if (hi === 0xffffffff && lo >= 0x80000000) return lo - TWO_32;
    return this.fail('BLOB_INVALID_FIELD', `${what} expected a 32-bit integer, got a larger varint`, start);
  }

  /** A varint that must be 0 or 1. */
  readBool(end: number, what: string): boolean {
    const start = this.pos;
    this.readVarint64(end, what);
    if (this.hi === 0 && (this.lo === 0 || this.lo === 1)) return this.lo === 1;
    return this.fail('BLOB_INVALID_FIELD', `${what} expected a bool varint 0 or 1, got another value`, start);
  }

  /** A zigzag (sint64) varint as bigint. */
  readSint64(end: number, what: string): bigint {
    this.readVarint64(end, what);
    const { lo, hi } = this;
    if (hi < 0x200000) {
      const n = hi * TWO_32 + lo;
      return BigInt(n % 2 === 0 ? n / 2 : -(n + 1) / 2);
    }
    const u = (BigInt(hi) << 32n) | BigInt(lo);
    return (u & 1n) === 0n ? u >> 1n : -(u >> 1n) - 1n;
  }

  /** A little-endian signed 64-bit integer (sfixed64) as bigint. */
  readSfixed64(end: number, what: string): bigint {
    const p = this.pos;
    if (p + 8 > end) this.endOfData(end, what, p);
    const buf = this.buf;
    const lo = (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
    const hi = buf[p + 4]! | (buf[p + 5]! << 8) | (buf[p + 6]! << 16) | (buf[p + 7]! << 24);
    this.pos = p + 8;
    if (hi >= -0x200000 && hi < 0x200000) return BigInt(hi * TWO_32 + lo);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A length-delimited UTF-8 string. */
  readString(end: number, what: string): string {
    const stop = this.readLength(end, what);
    const start = this.pos;
    let view = this.view;
    if (view === null) {
      view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
      this.view = view;
    }
    const s = decodeUtf8(this.buf, start, stop, view, this.strings);
    if (s === null)
      this.fail('BLOB_INVALID_UTF8', `${what} expected well-formed UTF-8, got invalid bytes`, start);
    this.pos = stop;
    return s;
  }

  /**
   * A length-delimited bytes field, as a view into the input (no copy: small typed-array
   * allocations are slow, so public decoders copy their whole input once instead).
   */
  readBytes(end: number, what: string): Uint8Array {
    const stop = this.readLength(end, what);
    const out = this.buf.subarray(this.pos, stop);
    this.pos = stop;
    return out;
  }

  /** Reads the tag of the next field of the message ending at `end`; 0 at its end (tags are ≥ 8). */
  nextTag(end: number): number {
    if (this.pos >= end) return 0;
    this.tagAt = this.pos;
    return this.readTag(end);
  }

  /** Checks a known field's wire type. */
  expectWire(tag: number, wire: number, what: string, tagOffset = this.tagAt): void {
    if ((tag & 7) !== wire) {
      this.fail(
        'BLOB_WRONG_WIRE_TYPE',
        `${what} expected wire type ${wire}, got ${tag & 7} (field ${tag >>> 3})`,
        tagOffset,
      );
    }
  }

  /** Checks a field that may stand once: its wire type, and no value (`present`) yet. */
  expectOnce(tag: number, wire: number, present: unknown, what: string, tagOffset = this.tagAt): void {
    this.expectWire(tag, wire, what, tagOffset);
    if (present !== undefined)
      this.fail('BLOB_DUPLICATE_FIELD', `${what} expected once, got twice`, tagOffset);
  }

  /** `expectOnce` for a length-delimited field. */
  expectLenOnce(tag: number, present: unknown, what: string, tagOffset = this.tagAt): void {
    this.expectOnce(tag, WIRE_LEN, present, what, tagOffset);
  }

  /** Rejects a field the schema keeps but forbids (a legacy label or type id). */
  forbidden(what: string, tagOffset = this.tagAt): never {
    return this.fail('BLOB_INVALID_FIELD', `${what} expected absent (must not be used), got one`, tagOffset);
  }

  /** Rejects, or skips and records, a field the schema does not know. */
  unknownField(tag: number, end: number, message: string, tagOffset = this.tagAt): void {
    const field = tag >>> 3;
    const wire = tag & 7;
    if (this.unknown === null) {
      this.fail(
        'BLOB_UNKNOWN_FIELD',
        `${message} expected only known fields, got field ${field} (wire type ${wire})`,
        tagOffset,
      );
    }
    switch (wire) {
      case WIRE_VARINT:
        this.readVarint64(end, `${message} unknown field ${field}`);
        break;
      case WIRE_I64:
        if (this.pos + 8 > end) this.endOfData(end, `${message} unknown field ${field}`, this.pos);
        this.pos += 8;
        break;
      case WIRE_LEN:
        this.pos = this.readLength(end, `${message} unknown field ${field}`);
        break;
      case WIRE_I32:
        if (this.pos + 4 > end) this.endOfData(end, `${message} unknown field ${field}`, this.pos);
        this.pos += 4;
        break;
      default:
        this.fail(
          'BLOB_WRONG_WIRE_TYPE',
          `${message} expected wire type 0, 1, 2 or 5, got ${wire} (field ${field})`,
          tagOffset,
        );
    }
    this.unknown.push({ message, fieldNumber: field, wireType: wire, offset: tagOffset });
  }
}
