/**
 * The body of an archive chunk (docs/mirror.md "Archive"): rows of one or more mirror tables,
 * column by column, deflated together. SQLite values keep their storage class exactly: integers
 * (read as bigint), reals, text, bytes and NULL. Byte values travel after the JSON header as
 * length-prefixed runs (so deflate sees the bytes, not base64 of them); a text column may be given
 * as "the lowercase hex of bytes `[at, at + n)` of another byte column of the same row" (a contract
 * row's ID is inside its created_event_blob), which costs a few bytes instead of 138 characters.
 *
 *   body = deflateRaw( u32 header length ‖ header JSON ‖ (u32 length ‖ bytes)* )
 *   header = { "v": 1, "tables": { name: { "columns": [...], "rows": n, "values": [column][row] } } }
 *   cell = null | "text" | { "i": "123" } | { "r": 1.5 } | { "b": run index } | { "x": [column, at, n] }
 *
 * Anything else read back is a StoreError STORE_CORRUPT naming the chunk: a damaged chunk never
 * reads as other rows.
 */
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { StoreError } from '../../errors/store.js';

/** Rows of one table: `values[c][r]` is column c of row r. */
export interface ArchiveTable {
  readonly columns: readonly string[];
  readonly values: readonly (readonly unknown[])[];
}

/** Largest body a chunk may inflate to (a chunk of contracts, each at most 1 MiB, with room). */
const MAX_CHUNK_BYTES = 64 << 20;

const VERSION = 1;

type Cell = null | string | { i: string } | { r: number } | { b: number } | { x: [number, number, number] };

/** Text columns stored as hex inside a byte column of the same row, when found there. */
export type HexInBytes = Readonly<Record<string, string>>;

/** Encodes tables into a chunk body; `hexIn` maps a table to {text column: byte column}. */
export function encodeArchiveChunk(
  tables: Readonly<Record<string, ArchiveTable>>,
  hexIn: Readonly<Record<string, HexInBytes>> = {},
): Buffer {
  const runs: Buffer[] = [];
  const header: Record<string, { columns: readonly string[]; rows: number; values: Cell[][] }> = {};
  for (const [name, t] of Object.entries(tables)) {
    const rows = t.values[0]?.length ?? 0;
    const values: Cell[][] = t.columns.map((column, c) => {
      const col = t.values[c] ?? [];
      const inside = hexIn[name]?.[column];
      const bytesAt = inside === undefined ? -1 : t.columns.indexOf(inside);
      return col.map((v, r) => {
        if (typeof v === 'string' && bytesAt >= 0) {
          const x = findHexInBytes(v, t.values[bytesAt]?.[r]);
          if (x !== null) return { x: [bytesAt, x, v.length / 2] };
        }
        return encodeCell(v, runs);
      });
    });
    header[name] = { columns: t.columns, rows, values };
  }
  const head = Buffer.from(JSON.stringify({ v: VERSION, tables: header }));
  const parts: Buffer[] = [u32(head.length), head];
  for (const run of runs) parts.push(u32(run.length), run);
  return deflateRawSync(Buffer.concat(parts), { level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

function encodeCell(v: unknown, runs: Buffer[]): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return { i: v.toString() };
  if (typeof v === 'number') return { r: v };
  if (v instanceof Uint8Array) {
    runs.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    return { b: runs.length - 1 };
  }
  throw new StoreError('STORE_WRITE_FAILED', `an archived cell expected an SQLite value, got ${typeof v}`);
}

/** The offset of `hex`'s bytes inside `bytes` when `hex` is lowercase hex of even length, else null. */
function findHexInBytes(hex: string, bytes: unknown): number | null {
  if (!(bytes instanceof Uint8Array) || hex.length === 0 || !/^(?:[0-9a-f]{2})+$/.test(hex)) return null;
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(Buffer.from(hex, 'hex'));
  return at < 0 ? null : at;
}

/** Decodes a chunk body into its tables (cells as SQLite values: bigint, number, string, Buffer, null). */
export function decodeArchiveChunk(chunk: string, body: unknown): Map<string, ArchiveTable> {
  const corrupt = (what: string): StoreError =>
    new StoreError('STORE_CORRUPT', `archive chunk ${chunk}: ${what}`);
  if (!(body instanceof Uint8Array))
    throw corrupt(`expected bytes, got ${body === null ? 'null' : typeof body}`);
  let raw: Buffer;
  try {
    raw = inflateRawSync(body, { maxOutputLength: MAX_CHUNK_BYTES });
  } catch (e) {
    throw corrupt(`expected a deflated body, got one that does not inflate (${(e as Error).message})`);
  }
  if (raw.length < 4) throw corrupt(`expected a header length, got ${raw.length} bytes`);
  const headLength = raw.readUInt32BE(0);
  if (4 + headLength > raw.length)
    throw corrupt(`expected a header of ${headLength} bytes, got ${raw.length - 4}`);
  let header: unknown;
  try {
    header = JSON.parse(raw.subarray(4, 4 + headLength).toString('utf8'));
  } catch {
    throw corrupt('expected a JSON header, got text that does not parse');
  }
  const runs: Buffer[] = [];
  for (let at = 4 + headLength; at < raw.length; ) {
    if (at + 4 > raw.length) throw corrupt(`expected a run length at byte ${at}, got the end`);
    const n = raw.readUInt32BE(at);
    if (at + 4 + n > raw.length) throw corrupt(`expected a run of ${n} bytes at byte ${at}, got fewer`);
    runs.push(raw.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  const h = header as { v?: unknown; tables?: unknown };
  if (h === null || typeof h !== 'object' || h.v !== VERSION)
    throw corrupt(`expected format version ${VERSION}, got ${JSON.stringify((h as { v?: unknown })?.v)}`);
  if (h.tables === null || typeof h.tables !== 'object' || Array.isArray(h.tables))
    throw corrupt('expected an object of tables');
  const out = new Map<string, ArchiveTable>();
  for (const [name, t] of Object.entries(h.tables as Record<string, unknown>)) {
    const table = t as { columns?: unknown; rows?: unknown; values?: unknown };
    const columns = table?.columns;
    const rows = table?.rows;
    const values = table?.values;
    if (
      !Array.isArray(columns) ||
      !columns.every((c) => typeof c === 'string') ||
      typeof rows !== 'number' ||
      !Number.isSafeInteger(rows) ||
      rows < 0 ||
      !Array.isArray(values) ||
      values.length !== columns.length ||
      !values.every((col) => Array.isArray(col) && col.length === rows)
    )
      throw corrupt(`table ${name} expected columns × ${String(rows)} rows of values`);
    const decoded = (values as unknown[][]).map((col) => col.map((cell) => decodeCell(cell, runs, corrupt)));
    // hex inside another column of the row, resolved once that column is decoded
    for (const [c, col] of decoded.entries())
      for (const [r, cell] of col.entries()) {
        if (!(cell instanceof HexRef)) continue;
        const bytes = decoded[cell.column]?.[r];
        if (!(bytes instanceof Uint8Array) || cell.at + cell.n > bytes.length)
          throw corrupt(
            `table ${name} column ${String(columns[c])} row ${r}: expected bytes to read hex from`,
          );
        col[r] = Buffer.from(bytes.buffer, bytes.byteOffset + cell.at, cell.n).toString('hex');
      }
    out.set(name, { columns: columns as string[], values: decoded });
  }
  return out;
}

class HexRef {
  constructor(
    readonly column: number,
    readonly at: number,
    readonly n: number,
  ) {}
}

function decodeCell(cell: unknown, runs: readonly Buffer[], corrupt: (w: string) => StoreError): unknown {
  if (cell === null || typeof cell === 'string') return cell;
  if (typeof cell === 'object' && !Array.isArray(cell)) {
    const c = cell as Record<string, unknown>;
    if (typeof c.i === 'string' && /^-?\d{1,19}$/.test(c.i)) return BigInt(c.i);
    if (typeof c.r === 'number') return c.r;
    if (typeof c.b === 'number' && runs[c.b] !== undefined) return Buffer.from(runs[c.b] as Buffer);
    const x = c.x;
    if (Array.isArray(x) && x.length === 3 && x.every((n) => Number.isSafeInteger(n) && (n as number) >= 0))
      return new HexRef(x[0] as number, x[1] as number, x[2] as number);
  }
  throw corrupt(
    `expected a cell (null, text, {i}, {r}, {b}, {x}), got ${JSON.stringify(cell)?.slice(0, 40)}`,
  );
}
