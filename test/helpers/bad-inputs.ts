/**
 * The shared table of hostile / malformed created_event_blobs (docs/architecture.md "Code style", tests:
 * a shared list of bad inputs that every public decoder must reject with a typed error). Each case is built
 * from a REAL blob vector with a small hand-rolled protobuf writer (independent of the codec's own
 * encoder) and names the `CodecError` code it must produce. Other decoders (verify-contract, the
 * server's disclosure endpoint…) can replay `badBlobInputs` and expect a typed error.
 */
import type { CodecErrorCode } from '../../src/errors/codec.js';
import { loadContractIdVectors } from './vectors.js';

export interface BadBlobInput {
  readonly name: string;
  /** bytes, or base64 text */
  readonly input: Uint8Array | string;
  readonly code: CodecErrorCode;
  readonly options?: { maxBytes?: number; maxDepth?: number; unknownFields?: 'reject' | 'report' };
}

// ---- a tiny protobuf writer, for tests only --------------------------------------------------

export function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}
export const cat = (...parts: (readonly number[] | Uint8Array)[]): number[] => parts.flatMap((p) => [...p]);
export const tag = (field: number, wire: number): number[] => varint(field * 8 + wire);
export const ld = (field: number, body: readonly number[] | Uint8Array): number[] =>
  cat(tag(field, 2), varint(body.length), body);
export const str = (field: number, s: string): number[] => ld(field, new TextEncoder().encode(s));
export const fixed64 = (field: number, v: bigint): number[] => {
  const u = BigInt.asUintN(64, v);
  const out = tag(field, 1);
  for (let i = 0n; i < 8n; i++) out.push(Number((u >> (8n * i)) & 0xffn));
  return out;
};
export const bytesOf = (a: readonly number[]): Uint8Array => Uint8Array.from(a);

// ---- LF-2 Value builders (current layout numbers, docs/protocol/blob-format.md §3.2) ------------

export const V = {
  unit: (): number[] => ld(1, []),
  bool: (b: boolean): number[] => cat(tag(2, 0), [b ? 1 : 0]),
  int64: (n: bigint): number[] => cat(tag(3, 0), varint(n >= 0n ? n << 1n : (-n << 1n) - 1n)),
  numeric: (s: string): number[] => str(6, s),
  party: (s: string): number[] => str(7, s),
  text: (s: string): number[] => str(8, s),
  textBytes: (b: readonly number[]): number[] => ld(8, b),
  optional: (inner: number[] | null): number[] => ld(10, inner === null ? [] : ld(1, inner)),
  list: (els: number[][]): number[] =>
    ld(
      11,
      els.flatMap((e) => ld(1, e)),
    ),
  record: (fields: number[][]): number[] =>
    ld(
      13,
      fields.flatMap((f) => ld(1, ld(1, f))),
    ),
  textMap: (entries: [string, number[]][]): number[] =>
    ld(
      16,
      entries.flatMap(([k, v]) => ld(1, cat(str(1, k), ld(2, v)))),
    ),
};

// ---- a real blob, taken apart ------------------------------------------------------------------

export interface FciParts {
  version: string;
  contractId: number[] | null;
  packageName: string | null;
  templateId: number[] | null;
  createArg: number[] | null;
  signatories: string[];
  observers: string[];
  createdAt: bigint;
  auth: number[];
  extra?: number[];
}

const hex = (h: string): number[] =>
  Array.from({ length: h.length / 2 }, (_, i) => parseInt(h.slice(2 * i, 2 * i + 2), 16));

/** The parts of the real "Iou (V10)" vector (its `decoded` fields; docs/protocol/blob-format.md §8.1). */
export function realParts(): FciParts {
  const v = loadContractIdVectors().blobVectors.find((b) => b.name === 'Iou (V10)')!;
  const [pkg, mod, ent] = v.decoded.templateId.split(':') as [string, string, string];
  const alice = v.decoded.signatories[0]!;
  return {
    version: v.decoded.serializationVersion,
    contractId: hex(v.contractId),
    packageName: v.decoded.packageName,
    templateId: cat(
      str(1, pkg),
      ...mod.split('.').map((m) => str(2, m)),
      ...ent.split('.').map((e) => str(3, e)),
    ),
    createArg: V.record([
      V.party(alice),
      V.party(alice),
      V.text('USD'),
      V.numeric('999.9900000000'),
      V.list([]),
    ]),
    signatories: [alice],
    observers: [],
    createdAt: BigInt(v.decoded.createdAtMicros),
    auth: hex(v.decoded.authenticationDataHex),
  };
}

/** Serializes parts as a current-layout blob, fields in Canton's order. */
export function buildBlob(p: FciParts): Uint8Array {
  const fci = cat(
    p.contractId === null ? [] : ld(1, p.contractId),
    p.packageName === null ? [] : str(2, p.packageName),
    p.templateId === null ? [] : ld(3, p.templateId),
    p.createArg === null ? [] : ld(4, p.createArg),
    ...p.signatories.map((s) => str(5, s)),
    ...p.observers.map((s) => str(6, s)),
    fixed64(7, p.createdAt),
    ld(8, p.auth),
    p.extra ?? [],
  );
  return bytesOf(cat(str(1, p.version), ld(2, fci)));
}

/** The blob with `createArg` replaced. */
function blobWithArg(arg: number[]): Uint8Array {
  return buildBlob({ ...realParts(), createArg: arg });
}

/** `depth` nested Optionals (Some(Some(…Some(unit)))) without quadratic copying. */
function nestedOptionals(depth: number): number[] {
  const sizes: number[] = [2]; // innermost unit: 0a 00
  for (let i = 0; i < depth; i++) {
    const inner = sizes[i]!;
    const optBody = 1 + varint(inner).length + inner; // Optional{ 0a len inner }
    sizes.push(1 + varint(optBody).length + optBody); // Value{ 52 len Optional }
  }
  const out: number[] = [];
  for (let i = depth; i > 0; i--) {
    const inner = sizes[i - 1]!;
    const optBody = 1 + varint(inner).length + inner;
    out.push(0x52, ...varint(optBody), 0x0a, ...varint(inner));
  }
  out.push(0x0a, 0x00);
  return out;
}

/** `depth` nested lists [[[…[unit]…]]]. */
function nestedLists(depth: number): number[] {
  const sizes: number[] = [2];
  for (let i = 0; i < depth; i++) {
    const inner = sizes[i]!;
    const listBody = 1 + varint(inner).length + inner;
    sizes.push(1 + varint(listBody).length + listBody);
  }
  const out: number[] = [];
  for (let i = depth; i > 0; i--) {
    const inner = sizes[i - 1]!;
    const listBody = 1 + varint(inner).length + inner;
    out.push(0x5a, ...varint(listBody), 0x0a, ...varint(inner));
  }
  out.push(0x0a, 0x00);
  return out;
}

function withByte(b: Uint8Array, i: number, value: number): Uint8Array {
  const c = b.slice();
  c[i] = value;
  return c;
}

/** The table. Built lazily (it reads the vector file). */
export function badBlobInputs(): BadBlobInput[] {
  const good = buildBlob(realParts());
  const p = realParts();
  const alice = p.signatories[0]!;
  const bob = 'Bob::1220b6683b7d875557055126f8b8f059d9c070ece95e7784d279a135c8c1285a4f1f';
  const tenMb = 10 * 1024 * 1024;
  return [
    { name: 'empty input', input: new Uint8Array(0), code: 'BLOB_UNSUPPORTED_VERSION' },
    { name: 'truncated to half', input: good.slice(0, good.length >> 1), code: 'BLOB_TRUNCATED' },
    { name: 'truncated by one byte', input: good.slice(0, good.length - 1), code: 'BLOB_TRUNCATED' },
    { name: 'truncated inside the version string', input: good.slice(0, 4), code: 'BLOB_TRUNCATED' },
    {
      name: 'truncated inside the payload length varint',
      input: bytesOf([0x0a, 0x03, 0x32, 0x2e, 0x31, 0x12, 0xef]),
      code: 'BLOB_TRUNCATED',
    },
    {
      name: 'trailing garbage after the envelope',
      input: bytesOf(cat(good, [0xde, 0xad, 0xbe, 0xef])),
      code: 'BLOB_TRAILING_BYTES',
    },
    { name: 'trailing zero byte', input: bytesOf(cat(good, [0])), code: 'BLOB_TRAILING_BYTES' },
    {
      name: 'unknown version "3.0"',
      input: buildBlob({ ...p, version: '3.0' }),
      code: 'BLOB_UNSUPPORTED_VERSION',
    },
    {
      name: 'version "14" with the current layout',
      input: buildBlob({ ...p, version: '14' }),
      code: 'BLOB_UNSUPPORTED_VERSION',
    },
    {
      name: 'bit flip: version tag 0x0a → 0x0b (wire type 3)',
      input: withByte(good, 0, 0x0b),
      code: 'BLOB_WRONG_WIRE_TYPE',
    },
    {
      name: 'bit flip: version tag 0x0a → 0x08 (varint)',
      input: withByte(good, 0, 0x08),
      code: 'BLOB_WRONG_WIRE_TYPE',
    },
    { name: 'field number 0', input: bytesOf(cat([0x02, 0x00], good)), code: 'BLOB_INVALID_TAG' },
    {
      name: 'unknown envelope field 3',
      input: bytesOf(cat(str(1, '2.1'), [0x18, 0x01], good.slice(5))),
      code: 'BLOB_UNKNOWN_FIELD',
    },
    {
      name: 'unknown FCI field 10',
      input: buildBlob({ ...p, extra: [0x50, 0x01] }),
      code: 'BLOB_UNKNOWN_FIELD',
    },
    {
      name: 'unknown Value field 20',
      input: blobWithArg(cat(V.unit(), [0xa0, 0x01, 0x01])),
      code: 'BLOB_UNKNOWN_FIELD',
    },
    {
      name: 'created_at sent as a varint',
      input: buildBlob({ ...p, extra: [0x38, 0x01] }),
      code: 'BLOB_WRONG_WIRE_TYPE',
    },
    {
      name: 'invalid UTF-8 in package_name',
      input: buildBlob({ ...p, packageName: null, extra: ld(2, [0x6d, 0xff, 0x6f]) }),
      code: 'BLOB_INVALID_UTF8',
    },
    {
      name: 'overlong UTF-8 in a text',
      input: blobWithArg(V.record([V.textBytes([0xc0, 0x80])])),
      code: 'BLOB_INVALID_UTF8',
    },
    {
      name: 'UTF-16 surrogate in a long text',
      input: blobWithArg(V.record([V.textBytes(cat(new Array(20).fill(0x61), [0xed, 0xa0, 0x80]))])),
      code: 'BLOB_INVALID_UTF8',
    },
    {
      name: 'truncated 4-byte UTF-8 sequence',
      input: blobWithArg(V.textBytes([0x61, 0xf0, 0x9f, 0x98])),
      code: 'BLOB_INVALID_UTF8',
    },
    {
      name: 'unsorted signatories',
      input: buildBlob({ ...p, signatories: [bob, alice].sort().reverse() }),
      code: 'BLOB_UNSORTED_PARTIES',
    },
    {
      name: 'duplicate signatory',
      input: buildBlob({ ...p, signatories: [alice, alice] }),
      code: 'BLOB_UNSORTED_PARTIES',
    },
    {
      name: 'unsorted observers',
      input: buildBlob({ ...p, observers: ['zed::1220aa', 'amy::1220aa'] }),
      code: 'BLOB_UNSORTED_PARTIES',
    },
    {
      name: 'observer that is also a signatory',
      input: buildBlob({ ...p, observers: [alice] }),
      code: 'BLOB_INCONSISTENT_PARTIES',
    },
    {
      name: 'no signatories at all',
      input: buildBlob({ ...p, signatories: [] }),
      code: 'BLOB_INCONSISTENT_PARTIES',
    },
    {
      name: 'party with a forbidden char',
      input: buildBlob({ ...p, signatories: ['Alice!'] }),
      code: 'BLOB_INVALID_PARTY',
    },
    { name: 'numeric without a dot', input: blobWithArg(V.numeric('999')), code: 'BLOB_INVALID_NUMERIC' },
    {
      name: 'numeric with a leading zero',
      input: blobWithArg(V.numeric('01.5')),
      code: 'BLOB_INVALID_NUMERIC',
    },
    {
      name: 'numeric with an exponent',
      input: blobWithArg(V.numeric('1.0e5')),
      code: 'BLOB_INVALID_NUMERIC',
    },
    {
      name: 'numeric with scale 38',
      input: blobWithArg(V.numeric(`0.${'1'.repeat(38)}`)),
      code: 'BLOB_INVALID_NUMERIC',
    },
    {
      name: 'numeric with 39 digits',
      input: blobWithArg(V.numeric(`${'9'.repeat(29)}.${'0'.repeat(10)}`)),
      code: 'BLOB_INVALID_NUMERIC',
    },
    { name: '10,000 nested optionals', input: blobWithArg(nestedOptionals(10_000)), code: 'BLOB_TOO_DEEP' },
    { name: '10,000 nested lists', input: blobWithArg(nestedLists(10_000)), code: 'BLOB_TOO_DEEP' },
    {
      name: '101 nested optionals (limit 100)',
      input: blobWithArg(nestedOptionals(100)),
      code: 'BLOB_TOO_DEEP',
    },
    {
      name: '3 levels with maxDepth 2',
      input: blobWithArg(V.list([V.list([V.unit()])])),
      code: 'BLOB_TOO_DEEP',
      options: { maxDepth: 2 },
    },
    {
      name: '10 MB length prefix in a nested text',
      input: blobWithArg(V.record([cat([0x42], varint(tenMb), [0x61, 0x62])])),
      code: 'BLOB_LENGTH_OUT_OF_RANGE',
    },
    {
      name: '10 MB length prefix for the payload',
      input: bytesOf(cat(str(1, '2.1'), [0x12], varint(tenMb), [0x0a, 0x00])),
      code: 'BLOB_LENGTH_OUT_OF_RANGE',
    },
    {
      name: 'length prefix of 2^63',
      input: bytesOf(cat(str(1, '2.1'), [0x12], varint(1n << 63n), [0x0a])),
      code: 'BLOB_LENGTH_OUT_OF_RANGE',
    },
    {
      name: 'nested length overrunning its parent',
      input: blobWithArg(cat([0x6a, 0x05], [0x0a, 0x09, 0x0a, 0x02, 0x0a, 0x00])),
      code: 'BLOB_LENGTH_OUT_OF_RANGE',
    },
    {
      name: '11-byte varint',
      input: blobWithArg(cat([0x18], new Array(10).fill(0xff), [0x01])),
      code: 'BLOB_VARINT_OVERFLOW',
    },
    {
      name: '10-byte varint above 2^64',
      input: blobWithArg(cat([0x18], new Array(9).fill(0xff), [0x02])),
      code: 'BLOB_VARINT_OVERFLOW',
    },
    { name: 'Value with no member', input: blobWithArg([]), code: 'BLOB_INVALID_ONEOF' },
    {
      name: 'Value with two members',
      input: blobWithArg(cat(V.bool(true), V.int64(2n))),
      code: 'BLOB_INVALID_ONEOF',
    },
    {
      name: 'record field without a value',
      input: blobWithArg(ld(13, ld(1, []))),
      code: 'BLOB_INVALID_ONEOF',
    },
    {
      name: 'duplicate TextMap key',
      input: blobWithArg(
        V.textMap([
          ['a', V.unit()],
          ['a', V.unit()],
        ]),
      ),
      code: 'BLOB_DUPLICATE_MAP_KEY',
    },
    { name: 'bool varint 2', input: blobWithArg([0x10, 0x02]), code: 'BLOB_INVALID_FIELD' },
    { name: 'empty package_name', input: buildBlob({ ...p, packageName: '' }), code: 'BLOB_MISSING_FIELD' },
    { name: 'no package_name', input: buildBlob({ ...p, packageName: null }), code: 'BLOB_MISSING_FIELD' },
    { name: 'no contract_id', input: buildBlob({ ...p, contractId: null }), code: 'BLOB_MISSING_FIELD' },
    { name: 'no template_id', input: buildBlob({ ...p, templateId: null }), code: 'BLOB_MISSING_FIELD' },
    { name: 'no create_arg', input: buildBlob({ ...p, createArg: null }), code: 'BLOB_MISSING_FIELD' },
    { name: 'no payload', input: bytesOf(str(1, '2.1')), code: 'BLOB_MISSING_FIELD' },
    {
      name: 'contract id with prefix 0x02',
      input: buildBlob({ ...p, contractId: cat([0x02], p.contractId!.slice(1)) }),
      code: 'BLOB_INVALID_FIELD',
    },
    {
      name: 'upper-case package id',
      input: buildBlob({ ...p, templateId: cat(str(1, 'AB'.repeat(32)), str(2, 'Iou'), str(3, 'Iou')) }),
      code: 'BLOB_INVALID_FIELD',
    },
    {
      name: 'package_name twice',
      input: buildBlob({ ...p, extra: str(2, 'again') }),
      code: 'BLOB_DUPLICATE_FIELD',
    },
    { name: 'blob above maxBytes', input: good, code: 'BLOB_TOO_LARGE', options: { maxBytes: 100 } },
    {
      name: 'base64 above maxBytes',
      input: 'A'.repeat(400),
      code: 'BLOB_TOO_LARGE',
      options: { maxBytes: 100 },
    },
    { name: 'base64 with a bad char', input: 'CgMy!jES', code: 'INVALID_BASE64' },
    { name: 'base64 without padding', input: 'CgMyLjE', code: 'INVALID_BASE64' },
    { name: 'url-safe base64', input: 'CgMy-_ES', code: 'INVALID_BASE64' },
    { name: 'base64 with whitespace', input: 'CgMy LjES', code: 'INVALID_BASE64' },
    {
      name: 'maxDepth option out of range',
      input: good,
      code: 'CODEC_INVALID_OPTION',
      options: { maxDepth: 100_000 },
    },
  ];
}
