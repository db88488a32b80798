/**
 * Test builders for small (and malicious) zips, DARs, Archives and LF 2.x packages, written with
 * node:zlib and protobufjs' Writer following docs/protocol/dar-format.md §2–§5 (tests only).
 */
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import protobuf from 'protobufjs/minimal.js';

type W = protobuf.Writer;
const w = (): W => protobuf.Writer.create();
const LEN = 2;
const tag = (f: number, wt: number) => (f << 3) | wt;
const msg = (x: W, f: number, body: Uint8Array): W => x.uint32(tag(f, LEN)).bytes(body);

// ---------- zip ----------

export interface ZipSpec {
  readonly name: string;
  readonly data: Uint8Array;
  readonly method?: 0 | 8;
  /** overrides for hostile zips */
  readonly crc?: number;
  readonly uncompressedSize?: number;
  readonly flags?: number;
  readonly rawMethod?: number;
  readonly compressed?: Uint8Array;
}

export function buildZip(
  entries: readonly ZipSpec[],
  opts: { countOverride?: number; comment?: string } = {},
): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.rawMethod ?? e.method ?? 8;
    const comp = Buffer.from(e.compressed ?? (method === 8 ? deflateRawSync(e.data) : e.data));
    const crc = e.crc ?? crc32(e.data);
    const size = e.uncompressedSize ?? e.data.length;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(e.flags ?? 0, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(crc >>> 0, 14);
    lh.writeUInt32LE(comp.length, 18);
    lh.writeUInt32LE(size, 22);
    lh.writeUInt16LE(name.length, 26);
    locals.push(lh, name, comp);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(e.flags ?? 0, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(crc >>> 0, 16);
    ch.writeUInt32LE(comp.length, 20);
    ch.writeUInt32LE(size, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    central.push(ch, name);
    offset += 30 + name.length + comp.length;
  }
  const cd = Buffer.concat(central);
  const comment = Buffer.from(opts.comment ?? '', 'utf8');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  const count = opts.countOverride ?? entries.length;
  eocd.writeUInt16LE(count, 8);
  eocd.writeUInt16LE(count, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  return new Uint8Array(Buffer.concat([...locals, cd, eocd, comment]));
}

/** A DAR whose manifest lists `dalfs` (first = main), written the way damlc wraps lines at 72 bytes. */
export function buildDar(
  dalfs: readonly { path: string; bytes: Uint8Array }[],
  manifest?: string,
): Uint8Array {
  const text =
    manifest ??
    wrapManifest([
      'Manifest-Version: 1.0',
      'Created-By: reserve-audit tests',
      `Main-Dalf: ${dalfs[0]?.path ?? ''}`,
      `Dalfs: ${dalfs.map((d) => d.path).join(', ')}`,
      'Format: daml-lf',
      'Encryption: non-encrypted',
    ]);
  return buildZip([
    { name: 'META-INF/MANIFEST.MF', data: Buffer.from(text, 'utf8') },
    ...dalfs.map((d) => ({ name: d.path, data: d.bytes })),
  ]);
}

/** damlc's breakAt72Bytes: first physical line 71 bytes, continuations ' ' + up to 70 bytes. */
export function wrapManifest(lines: readonly string[], eol = '\n'): string {
  const out: string[] = [];
  for (const l of lines) {
    out.push(l.slice(0, 71));
    for (let i = 71; i < l.length; i += 70) out.push(` ${l.slice(i, i + 70)}`);
  }
  return `${out.join(eol)}${eol}`;
}

// ---------- archive ----------

export function sha256Hex(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

export function buildArchive(
  payload: Uint8Array,
  opts: { hash?: string | null; hashFunction?: number } = {},
): Uint8Array {
  const x = w();
  if (opts.hashFunction !== undefined) x.uint32(tag(1, 0)).int32(opts.hashFunction);
  msg(x, 3, payload);
  const h = opts.hash === undefined ? sha256Hex(payload) : opts.hash;
  if (h !== null) x.uint32(tag(4, LEN)).string(h);
  return x.finish();
}

export function buildPayload(
  pkg: Uint8Array,
  opts: { minor?: string; lf1?: boolean; patch?: number; field?: number } = {},
): Uint8Array {
  const x = w();
  x.uint32(tag(3, LEN)).string(opts.minor ?? '1');
  if (opts.patch !== undefined) x.uint32(tag(5, 0)).int32(opts.patch);
  msg(x, opts.field ?? (opts.lf1 ? 2 : 4), pkg);
  return x.finish();
}

/** A dalf (Archive bytes) and its package id. */
export function buildDalf(pkg: Uint8Array, minor = '1'): { bytes: Uint8Array; id: string } {
  const payload = buildPayload(pkg, { minor });
  return { bytes: buildArchive(payload), id: sha256Hex(payload) };
}

// ---------- LF 2.x package ----------

export type PkgRef = { self: true } | { interned: number } | { importId: number };

export const T = {
  interned: (k: number): Uint8Array => w().uint32(tag(8, 0)).int32(k).finish(),
  nat: (n: number): Uint8Array => w().uint32(tag(6, 0)).sint64(n).finish(),
  builtin: (b: number, args: readonly Uint8Array[] = []): Uint8Array => {
    const inner = w();
    if (b !== 0) inner.uint32(tag(1, 0)).int32(b);
    for (const a of args) msg(inner, 2, a);
    return msg(w(), 3, inner.finish()).finish();
  },
  var: (s: number, args: readonly Uint8Array[] = []): Uint8Array => {
    const inner = w().uint32(tag(3, 0)).int32(s);
    for (const a of args) msg(inner, 2, a);
    return msg(w(), 1, inner.finish()).finish();
  },
  con: (pkg: PkgRef, moduleD: number, nameD: number, args: readonly Uint8Array[] = []): Uint8Array => {
    const ref = w();
    if ('self' in pkg) msg(ref, 1, new Uint8Array());
    else if ('interned' in pkg) ref.uint32(tag(3, 0)).int32(pkg.interned);
    else ref.uint32(tag(4, 0)).int32(pkg.importId);
    const moduleId = msg(w(), 1, ref.finish()).uint32(tag(2, 0)).int32(moduleD).finish();
    const tycon = msg(w(), 1, moduleId).uint32(tag(2, 0)).int32(nameD).finish();
    const inner = msg(w(), 1, tycon);
    for (const a of args) msg(inner, 2, a);
    return msg(w(), 2, inner.finish()).finish();
  },
  tapp: (lhs: Uint8Array, rhs: Uint8Array): Uint8Array =>
    msg(w(), 9, msg(msg(w(), 1, lhs), 2, rhs).finish()).finish(),
  raw: (field: number, body: Uint8Array): Uint8Array => msg(w(), field, body).finish(),
};

interface DataTypeSpec {
  readonly name: number; // D index
  readonly params?: readonly number[]; // S indices
  readonly serializable?: boolean;
  readonly record?: readonly (readonly [number, Uint8Array])[];
  readonly variant?: readonly (readonly [number, Uint8Array])[];
  readonly enumCtors?: readonly number[];
}

function encodeDataType(d: DataTypeSpec): Uint8Array {
  const x = w().uint32(tag(2, 0)).int32(d.name);
  for (const p of d.params ?? []) msg(x, 3, w().uint32(tag(3, 0)).int32(p).finish());
  if (d.serializable ?? true) x.uint32(tag(4, 0)).bool(true);
  const fields = (fs: readonly (readonly [number, Uint8Array])[]) => {
    const f = w();
    for (const [n, t] of fs) msg(f, 1, msg(w().uint32(tag(3, 0)).int32(n), 2, t).finish());
    return f.finish();
  };
  if (d.record) msg(x, 5, fields(d.record));
  if (d.variant) msg(x, 6, fields(d.variant));
  if (d.enumCtors) {
    const e = w().uint32(tag(2, LEN)).fork();
    for (const c of d.enumCtors) e.int32(c);
    msg(x, 7, e.ldelim().finish());
  }
  return x.finish();
}

export interface PackageSpec {
  readonly strings: readonly string[];
  readonly dnames: readonly (readonly number[])[];
  readonly types?: readonly Uint8Array[];
  readonly modules?: readonly {
    name: number;
    dataTypes?: readonly DataTypeSpec[];
    templates?: readonly number[];
    raw?: Uint8Array;
  }[];
  /** S indices of name and version; null = no metadata */
  readonly metadata?: readonly [number, number] | null;
  readonly imports?: readonly string[];
  /** write dotted-name segments unpacked */
  readonly unpacked?: boolean;
}

export function encodePackage(p: PackageSpec): Uint8Array {
  const x = w();
  for (const m of p.modules ?? []) {
    const mx = w().uint32(tag(1, 0)).int32(m.name);
    for (const d of m.dataTypes ?? []) msg(mx, 4, encodeDataType(d));
    // a "value" (field 5) with junk bytes: must be skipped, never decoded
    msg(mx, 5, m.raw ?? Uint8Array.from([0xff, 0xff, 0x07, 0x12]));
    for (const t of m.templates ?? []) msg(mx, 6, w().uint32(tag(1, 0)).int32(t).finish());
    msg(x, 1, mx.finish());
  }
  for (const s of p.strings) x.uint32(tag(2, LEN)).string(s);
  for (const d of p.dnames) {
    const dx = w();
    if (p.unpacked) for (const s of d) dx.uint32(tag(1, 0)).int32(s);
    else {
      dx.uint32(tag(1, LEN)).fork();
      for (const s of d) dx.int32(s);
      dx.ldelim();
    }
    msg(x, 3, dx.finish());
  }
  const meta = p.metadata === undefined ? [0, 1] : p.metadata;
  if (meta !== null)
    msg(x, 4, w().uint32(tag(1, 0)).int32(meta[0]).uint32(tag(2, 0)).int32(meta[1]).finish());
  for (const t of p.types ?? []) msg(x, 5, t);
  if (p.imports) {
    const ix = w();
    for (const i of p.imports) ix.uint32(tag(1, LEN)).string(i);
    msg(x, 9, ix.finish());
  }
  return x.finish();
}
