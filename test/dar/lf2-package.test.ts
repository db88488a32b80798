/**
 * The LF 2.x package decoder on small hand-built packages (docs/protocol/dar-format.md §3–§5): what it
 * must read (interning, defaults, LF 2.2 tapp and package imports, TextMap 19/1001, Numeric
 * scales, packed and unpacked indices) and the hostile inputs it must reject with a typed DarError.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeArchive,
  decodeArchivePayload,
  decodeLf2Package,
  loadDalf,
} from '../../src/core/types/dar/index.js';
import { DarError, type DarErrorCode } from '../../src/errors/dar.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import {
  buildArchive,
  buildDalf,
  buildPayload,
  encodePackage,
  type PackageSpec,
  sha256Hex,
  T,
} from './build.js';

const SELF = 'aa'.repeat(32);
const OTHER = 'bb'.repeat(32);
// S: 0 name, 1 version, 2 M, 3 T, 4 f, 5 g, 6 a, 7 C1, 8 C2, 9 Sub, 10 OTHER id, 11 U
const STRINGS = ['pkg', '1.0.0', 'M', 'T', 'f', 'g', 'a', 'C1', 'C2', 'Sub', OTHER, 'U'];
// D: 0 M, 1 T, 2 T.Sub, 3 U
const DNAMES = [[2], [3], [3, 9], [11]];
const decode = (p: PackageSpec, lfVersion = '2.1') =>
  decodeLf2Package(encodePackage(p), { packageId: SELF, lfVersion, maxTypeDepth: 50 });

const code = (f: () => unknown): DarErrorCode | 'no error' | 'not a DarError' => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return e instanceof DarError ? e.code : 'not a DarError';
  }
};

describe('reads', () => {
  it('records, variants, enums, params, templates, dotted entity names and metadata', () => {
    const pkg = decode({
      strings: STRINGS,
      dnames: DNAMES,
      types: [
        T.builtin(7),
        T.builtin(5, [T.nat(10)]),
        T.var(6),
        T.con({ self: true }, 0, 2, [T.interned(0)]),
      ],
      modules: [
        {
          name: 0,
          templates: [1],
          dataTypes: [
            {
              name: 1,
              record: [
                [4, T.interned(1)],
                [5, T.interned(3)],
              ],
            },
            {
              name: 2,
              params: [6],
              variant: [
                [7, T.interned(2)],
                [8, T.builtin(0)],
              ],
            },
            { name: 3, enumCtors: [7, 8] },
          ],
        },
      ],
    });
    expect(pkg).toMatchObject({
      packageId: SELF,
      name: 'pkg',
      version: '1.0.0',
      lfVersion: '2.1',
      dependencies: [],
    });
    expect(pkg.templates).toEqual(new Set(['M:T']));
    expect(pkg.dataTypes.get('M:T')).toEqual({
      kind: 'record',
      name: { module: ['M'], entity: ['T'] },
      params: [],
      fields: [
        { name: 'f', type: { kind: 'numeric', scale: 10 } },
        {
          name: 'g',
          type: {
            kind: 'con',
            ref: { packageId: SELF, module: ['M'], entity: ['T', 'Sub'] },
            args: [{ kind: 'text' }],
          },
        },
      ],
    });
    expect(pkg.dataTypes.get('M:T.Sub')).toEqual({
      kind: 'variant',
      name: { module: ['M'], entity: ['T', 'Sub'] },
      params: ['a'],
      constructors: [
        { name: 'C1', type: { kind: 'var', name: 'a' } },
        { name: 'C2', type: { kind: 'unit' } },
      ],
    });
    expect(pkg.dataTypes.get('M:U')).toMatchObject({ kind: 'enum', constructors: ['C1', 'C2'] });
  });

  it('proto3 defaults: absent interned indices mean 0 (name "pkg", module "M")', () => {
    const pkg = decode({
      strings: STRINGS,
      dnames: DNAMES,
      metadata: [0, 1],
      modules: [{ name: 0, dataTypes: [{ name: 1, record: [[0, T.builtin(0)]] }] }],
    });
    expect(pkg.dataTypes.get('M:T')).toMatchObject({ fields: [{ name: 'pkg', type: { kind: 'unit' } }] });
  });

  it('unpacked dotted-name segments are accepted', () => {
    const pkg = decode({
      strings: STRINGS,
      dnames: DNAMES,
      unpacked: true,
      modules: [{ name: 0, dataTypes: [{ name: 2, enumCtors: [7] }] }],
    });
    expect([...pkg.dataTypes.keys()]).toEqual(['M:T.Sub']);
  });

  it('LF 2.2: tapp chains flatten, package_import_id resolves through package_imports', () => {
    const genMap = T.tapp(T.tapp(T.builtin(11), T.builtin(7)), T.builtin(2));
    const pkg = decode(
      {
        strings: STRINGS,
        dnames: DNAMES,
        imports: [OTHER],
        types: [genMap, T.tapp(T.con({ importId: 0 }, 0, 1), T.interned(0))],
        modules: [
          {
            name: 0,
            dataTypes: [
              {
                name: 1,
                record: [
                  [4, T.interned(0)],
                  [5, T.interned(1)],
                ],
              },
            ],
          },
        ],
      },
      '2.2',
    );
    const fields = (pkg.dataTypes.get('M:T') as unknown as { fields: { type: unknown }[] }).fields;
    expect(fields[0]!.type).toEqual({ kind: 'genMap', key: { kind: 'text' }, value: { kind: 'int64' } });
    expect(fields[1]!.type).toMatchObject({
      kind: 'con',
      ref: { packageId: OTHER },
      args: [{ kind: 'genMap' }],
    });
    expect(pkg.dependencies).toEqual([OTHER]);
  });

  it('TextMap is builtin 19 (and 1001 from the frozen 2.1 snapshot); imported ids via interned strings', () => {
    const pkg = decode({
      strings: STRINGS,
      dnames: DNAMES,
      modules: [
        {
          name: 0,
          dataTypes: [
            {
              name: 1,
              record: [
                [4, T.builtin(19, [T.builtin(6)])],
                [5, T.builtin(1001, [T.builtin(3)])],
                [6, T.con({ interned: 10 }, 0, 1)],
              ],
            },
          ],
        },
      ],
    });
    const fields = (pkg.dataTypes.get('M:T') as unknown as { fields: { type: unknown }[] }).fields;
    expect(fields.map((f) => f.type)).toEqual([
      { kind: 'textMap', value: { kind: 'party' } },
      { kind: 'textMap', value: { kind: 'date' } },
      { kind: 'con', ref: { packageId: OTHER, module: ['M'], entity: ['T'] }, args: [] },
    ]);
    expect(pkg.dependencies).toEqual([OTHER]);
  });

  it('non-serializable data types (e.g. with function fields) are left out, not rejected', () => {
    const pkg = decode({
      strings: STRINGS,
      dnames: DNAMES,
      modules: [
        {
          name: 0,
          dataTypes: [
            { name: 1, serializable: false, record: [[4, T.builtin(16, [T.builtin(7), T.builtin(7)])]] },
          ],
        },
      ],
    });
    expect(pkg.dataTypes.size).toBe(0);
  });

  it('a bare dalf loads with its recomputed id; without a declared hash it is not "idVerified"', () => {
    const pkg = encodePackage({ strings: STRINGS, dnames: DNAMES });
    const { bytes, id } = buildDalf(pkg);
    const a = loadDalf(bytes, { sha256: sha256Node });
    expect(a.packages[0]).toMatchObject({
      packageId: id,
      idVerified: true,
      main: true,
      name: 'pkg',
      path: null,
    });
    const payload = buildPayload(pkg, { minor: '2' });
    const b = loadDalf(buildArchive(payload, { hash: null }), { sha256: sha256Node });
    expect(b.packages[0]).toMatchObject({
      packageId: sha256Hex(payload),
      idVerified: false,
      lfVersion: '2.2',
    });
  });
});

// biome-ignore format: a table
const deep = (n: number): Uint8Array => { let t = T.builtin(7); for (let i = 0; i < n; i++) t = T.builtin(10, [t]); return t; };
const field = (t: Uint8Array): PackageSpec => ({
  strings: STRINGS,
  dnames: DNAMES,
  modules: [{ name: 0, dataTypes: [{ name: 1, record: [[4, t]] }] }],
});
const good = encodePackage(field(T.builtin(7)));

const BAD_PACKAGES: readonly [string, () => unknown, DarErrorCode][] = [
  ['string index out of range', () => decode(field(T.var(99))), 'DAR_INTERNED_INDEX_OUT_OF_RANGE'],
  [
    'negative string index',
    () => decode({ strings: STRINGS, dnames: [...DNAMES, [-1]], modules: [{ name: 4 }] }),
    'DAR_INTERNED_INDEX_OUT_OF_RANGE',
  ],
  [
    'dotted-name index out of range',
    () => decode({ strings: STRINGS, dnames: DNAMES, modules: [{ name: 7 }] }),
    'DAR_INTERNED_INDEX_OUT_OF_RANGE',
  ],
  [
    'metadata name index out of range',
    () => decode({ strings: STRINGS, dnames: DNAMES, metadata: [40, 1] }),
    'DAR_INTERNED_INDEX_OUT_OF_RANGE',
  ],
  ['interned type index out of range', () => decode(field(T.interned(5))), 'DAR_INTERNED_INDEX_OUT_OF_RANGE'],
  [
    'forward reference in interned types',
    () => decode({ ...field(T.interned(0)), types: [T.builtin(10, [T.interned(1)]), T.builtin(7)] }),
    'DAR_TYPE_FORWARD_REFERENCE',
  ],
  [
    'self reference in interned types',
    () => decode({ ...field(T.interned(0)), types: [T.interned(0)] }),
    'DAR_TYPE_FORWARD_REFERENCE',
  ],
  ['inline nesting beyond the limit', () => decode(field(deep(60))), 'DAR_TYPE_TOO_DEEP'],
  ['very deep inline nesting (no stack overflow)', () => decode(field(deep(5000))), 'DAR_TYPE_TOO_DEEP'],
  [
    'nesting built through the interned table',
    () =>
      decode({
        ...field(T.interned(60)),
        types: [T.builtin(7), ...Array.from({ length: 60 }, (_, i) => T.builtin(10, [T.interned(i)]))],
      }),
    'DAR_TYPE_TOO_DEEP',
  ],
  [
    'a chain of 20 000 interned aliases (no stack overflow)',
    () =>
      decode({
        ...field(T.interned(20_000)),
        types: [T.builtin(7), ...Array.from({ length: 20_000 }, (_, i) => T.interned(i))],
      }),
    'DAR_TYPE_TOO_DEEP',
  ],
  [
    'package_import_id without imports',
    () => decode(field(T.con({ importId: 0 }, 0, 1))),
    'DAR_INTERNED_INDEX_OUT_OF_RANGE',
  ],
  [
    'imported package id that is not 64 hex',
    () => decode(field(T.con({ interned: 3 }, 0, 1))),
    'DAR_TYPE_INVALID',
  ],
  ['Numeric without a nat', () => decode(field(T.builtin(5, [T.builtin(7)]))), 'DAR_TYPE_INVALID'],
  ['Numeric scale 38', () => decode(field(T.builtin(5, [T.nat(38)]))), 'DAR_TYPE_INVALID'],
  ['Numeric scale -1', () => decode(field(T.builtin(5, [T.nat(-1)]))), 'DAR_TYPE_INVALID'],
  [
    'Optional with two arguments',
    () => decode(field(T.builtin(9, [T.builtin(7), T.builtin(7)]))),
    'DAR_TYPE_INVALID',
  ],
  [
    'function type in a serializable record',
    () => decode(field(T.builtin(16, [T.builtin(7), T.builtin(7)]))),
    'DAR_TYPE_INVALID',
  ],
  ['forall in a serializable record', () => decode(field(T.raw(4, new Uint8Array()))), 'DAR_TYPE_INVALID'],
  [
    'higher-kinded variable in a serializable record',
    () => decode(field(T.var(6, [T.builtin(7)]))),
    'DAR_TYPE_INVALID',
  ],
  ['empty Type message', () => decode(field(new Uint8Array())), 'DAR_TYPE_INVALID'],
  [
    'serializable data type without constructors',
    () => decode({ strings: STRINGS, dnames: DNAMES, modules: [{ name: 0, dataTypes: [{ name: 1 }] }] }),
    'DAR_TYPE_INVALID',
  ],
  [
    'duplicate data type',
    () =>
      decode({
        strings: STRINGS,
        dnames: DNAMES,
        modules: [
          {
            name: 0,
            dataTypes: [
              { name: 3, enumCtors: [7] },
              { name: 3, enumCtors: [8] },
            ],
          },
        ],
      }),
    'DAR_DUPLICATE_DEFINITION',
  ],
  [
    'missing metadata',
    () => decode({ strings: STRINGS, dnames: DNAMES, metadata: null }),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'truncated package',
    () => decodeLf2Package(good.subarray(0, good.length - 3), { packageId: SELF, lfVersion: '2.1' }),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'sub-message longer than its parent',
    () => decodeLf2Package(Uint8Array.from([0x0a, 0x05, 0x08, 0x00]), { packageId: SELF, lfVersion: '2.1' }),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'invalid UTF-8 in interned strings',
    () => decodeLf2Package(Uint8Array.from([0x12, 0x02, 0xc3, 0x28]), { packageId: SELF, lfVersion: '2.1' }),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'group wire type',
    () => decodeLf2Package(Uint8Array.from([0x0b, 0x0c]), { packageId: SELF, lfVersion: '2.1' }),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'declared hash differs from the payload hash',
    () => decodeArchive(buildArchive(buildPayload(good), { hash: 'cc'.repeat(32) }), sha256Node),
    'DAR_PACKAGE_HASH_MISMATCH',
  ],
  [
    'hash function other than SHA256',
    () => decodeArchive(buildArchive(buildPayload(good), { hashFunction: 1 }), sha256Node),
    'DAR_UNSUPPORTED_HASH_FUNCTION',
  ],
  [
    'Archive without payload',
    () => decodeArchive(Uint8Array.from([0x22, 0x00]), sha256Node),
    'DAR_ARCHIVE_MALFORMED',
  ],
  [
    'LF 1.x payload',
    () => decodeArchivePayload(buildPayload(good, { minor: '17', lf1: true })),
    'DAR_UNSUPPORTED_LF_VERSION',
  ],
  [
    'unknown LF major (reserved field 9999)',
    () => decodeArchivePayload(buildPayload(good, { field: 9999 })),
    'DAR_UNSUPPORTED_LF_VERSION',
  ],
  [
    'LF 2.dev',
    () => decodeArchivePayload(buildPayload(good, { minor: 'dev' })),
    'DAR_UNSUPPORTED_LF_VERSION',
  ],
  [
    'LF 2 patch 1',
    () => decodeArchivePayload(buildPayload(good, { patch: 1 })),
    'DAR_UNSUPPORTED_LF_VERSION',
  ],
  [
    'garbage bytes as a dalf',
    () => loadDalf(Uint8Array.from([0xff, 0xff, 0xff]), { sha256: sha256Node }),
    'DAR_ARCHIVE_MALFORMED',
  ],
];

describe('rejects hostile packages with a typed DarError', () => {
  it.each(BAD_PACKAGES)('%s', (_label, f, expected) => {
    expect(code(f)).toBe(expected);
  });
});
