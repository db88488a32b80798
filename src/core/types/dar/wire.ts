/**
 * Protobuf wire helpers for hand-walking DALF messages with protobufjs' `Reader`
 * (docs/protocol/dar-format.md §11: skip expressions without decoding them). Every sub-message is read
 * within an explicit end offset that must lie inside its parent; groups are refused.
 * protobufjs throws plain Errors/RangeErrors; `withWireErrors` turns them into DarErrors.
 */
import protobuf from 'protobufjs/minimal.js';
import { DarError } from '../../../errors/dar.js';

export type WireReader = protobuf.Reader;

export function createWireReader(bytes: Uint8Array): WireReader {
  return new protobuf.Reader(bytes);
}

/** Reads a length prefix and returns the end offset of the length-delimited field. */
export function readEnd(r: WireReader, parentEnd: number, what: string): number {
  const len = r.uint32();
  const end = r.pos + len;
  if (end > parentEnd) {
    throw new DarError(
      'DAR_ARCHIVE_MALFORMED',
      `"${what}" length expected within its parent (${parentEnd - r.pos} bytes left), got ${len}`,
    );
  }
  return end;
}

/** Skips one field of the given wire type; refuses groups and unknown wire types. */
export function skipField(r: WireReader, wireType: number, what: string): void {
  switch (wireType) {
    case 0:
      r.skip();
      return;
    case 1:
      r.skip(8);
      return;
    case 2:
      r.skip(r.uint32());
      return;
    case 5:
      r.skip(4);
      return;
    default:
      throw new DarError(
        'DAR_ARCHIVE_MALFORMED',
        `"${what}" wire type expected 0, 1, 2 or 5, got ${wireType}`,
      );
  }
}

/** Asserts that a message ended exactly at its end offset. */
export function assertAtEnd(r: WireReader, end: number, what: string): void {
  if (r.pos !== end) {
    throw new DarError('DAR_ARCHIVE_MALFORMED', `"${what}" expected to end at offset ${end}, got ${r.pos}`);
  }
}

/**
 * Reads a sub-message (ending at `end`) of which only the int32 field `field` matters, skipping the
 * others, and asserts it ends at `end`; 0 when the field is absent (proto3 leaves 0 off the wire).
 */
export function readOnlyInt32(r: WireReader, end: number, field: number, what: string): number {
  let k = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === field << 3) k = r.int32();
    else skipField(r, tag & 7, what);
  }
  assertAtEnd(r, end, what);
  return k;
}

/** Reads a UTF-8 string field (strict: invalid UTF-8 is an error). */
export function readString(r: WireReader, parentEnd: number, what: string): string {
  const end = readEnd(r, parentEnd, what);
  const start = r.pos;
  r.pos = end;
  return decodeUtf8Range(r.buf, start, end, what);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 of buf[start, end); short ASCII strings (most identifiers) skip the native call. */
export function decodeUtf8Range(buf: Uint8Array, start: number, end: number, what: string): string {
  if (end - start < 16) {
    let s = '';
    let i = start;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === end) return s;
  }
  try {
    return utf8.decode(buf.subarray(start, end));
  } catch (cause) {
    throw new DarError('DAR_ARCHIVE_MALFORMED', `"${what}" expected UTF-8`, { cause });
  }
}

/** Reads a bytes field as a view into the reader's buffer (no copy). */
export function readBytes(r: WireReader, parentEnd: number, what: string): Uint8Array {
  const end = readEnd(r, parentEnd, what);
  const b = r.buf.subarray(r.pos, end);
  r.pos = end;
  return b;
}

/** Reads a repeated int32 field, packed (wire type 2) or one element (wire type 0). */
export function readInt32s(
  r: WireReader,
  wireType: number,
  parentEnd: number,
  out: number[],
  what: string,
): void {
  if (wireType === 0) {
    out.push(r.int32());
    return;
  }
  if (wireType !== 2) {
    throw new DarError('DAR_ARCHIVE_MALFORMED', `"${what}" wire type expected 0 or 2, got ${wireType}`);
  }
  const end = readEnd(r, parentEnd, what);
  while (r.pos < end) out.push(r.int32());
  assertAtEnd(r, end, what);
}

/** Runs a decoder and converts any non-DarError thrown inside (protobufjs) into DAR_ARCHIVE_MALFORMED. */
export function withWireErrors<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DarError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new DarError(
      'DAR_ARCHIVE_MALFORMED',
      `"${what}" expected a well-formed protobuf message, got ${msg}`,
      {
        cause: e,
      },
    );
  }
}
