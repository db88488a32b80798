/**
 * The zip reader, the manifest parser and DAR assembly (docs/protocol/dar-format.md §2, §2.1) on small
 * hand-built archives: what must be read, and the hostile zips and manifests that must end in a
 * typed DarError (bombs, truncation, bad CRC, ZIP64, encryption, missing Main-Dalf …).
 */

import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCrc32, decodeZip, loadDar, parseDarManifest } from '../../src/core/types/dar/index.js';
import { DarError, type DarErrorCode } from '../../src/errors/dar.js';
import { inflateRawNode } from '../../src/io/files/dar-file.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import {
  buildArchive,
  buildDalf,
  buildDar,
  buildPayload,
  buildZip,
  encodePackage,
  wrapManifest,
} from './build.js';

const inflateRaw = inflateRawNode;
const enc = (s: string) => new TextEncoder().encode(s);
const code = (f: () => unknown): DarErrorCode | 'no error' | 'not a DarError' => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return e instanceof DarError ? e.code : 'not a DarError';
  }
};
const readAll = (bytes: Uint8Array, limits = {}) => {
  const z = decodeZip(bytes, { inflateRaw, limits });
  return z.entries.map((e) => z.readEntry(e.name));
};

describe('CRC-32', () => {
  it('matches node:zlib on random data and the check value of "123456789"', () => {
    expect(computeCrc32(enc('123456789'))).toBe(0xcbf43926);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => computeCrc32(b) === crc32(b)));
  });
});

describe('zip reader', () => {
  it('reads stored and deflated entries, with an archive comment', () => {
    const a = enc('hello stored');
    const b = enc('hello deflated '.repeat(100));
    const z = decodeZip(
      buildZip(
        [
          { name: 'a.txt', data: a, method: 0 },
          { name: 'dir/b.txt', data: b },
        ],
        { comment: 'c' },
      ),
      { inflateRaw },
    );
    expect(z.entries.map((e) => [e.name, e.method])).toEqual([
      ['a.txt', 0],
      ['dir/b.txt', 8],
    ]);
    expect(z.readEntry('a.txt')).toEqual(a);
    expect(z.readEntry('dir/b.txt')).toEqual(b);
    expect(z.has('nope')).toBe(false);
  });

  const ok = buildZip([{ name: 'a', data: enc('x'.repeat(1000)) }]);
  const bomb = new Uint8Array(10 * 1024 * 1024);
  const BAD_ZIPS: readonly [string, () => unknown, DarErrorCode][] = [
    ['empty input', () => readAll(new Uint8Array()), 'DAR_ZIP_TRUNCATED'],
    ['truncated (second half cut)', () => readAll(ok.subarray(0, ok.length >> 1)), 'DAR_ZIP_TRUNCATED'],
    ['truncated (last byte cut)', () => readAll(ok.subarray(0, ok.length - 1)), 'DAR_ZIP_TRUNCATED'],
    [
      'too many entries',
      () =>
        readAll(
          buildZip([
            { name: 'a', data: enc('1') },
            { name: 'b', data: enc('2') },
          ]),
          { maxEntries: 1 },
        ),
      'DAR_ZIP_LIMIT',
    ],
    [
      'zip bomb: entry above maxEntryBytes',
      () => readAll(buildZip([{ name: 'z', data: bomb }]), { maxEntryBytes: 1024 * 1024 }),
      'DAR_ZIP_LIMIT',
    ],
    [
      'zip bomb: total above maxTotalBytes',
      () =>
        readAll(
          buildZip([
            { name: 'y', data: bomb },
            { name: 'z', data: bomb },
          ]),
          { maxTotalBytes: 15 * 1024 * 1024 },
        ),
      'DAR_ZIP_LIMIT',
    ],
    [
      'zip bomb: stream inflates beyond its declared size',
      () => readAll(buildZip([{ name: 'z', data: bomb, uncompressedSize: 1000 }])),
      'DAR_ZIP_INFLATE_FAILED',
    ],
    [
      'stream shorter than its declared size',
      () => readAll(buildZip([{ name: 'z', data: enc('abc'), uncompressedSize: 4 }])),
      'DAR_ZIP_CRC_MISMATCH',
    ],
    [
      'bad CRC-32',
      () => readAll(buildZip([{ name: 'a', data: enc('abc'), crc: 1234 }])),
      'DAR_ZIP_CRC_MISMATCH',
    ],
    [
      'corrupt deflate stream',
      () =>
        readAll(buildZip([{ name: 'a', data: enc('abc'), compressed: Uint8Array.from([0xff, 0xff, 0xff]) }])),
      'DAR_ZIP_INFLATE_FAILED',
    ],
    [
      'name longer than the limit',
      () => readAll(buildZip([{ name: 'n'.repeat(300), data: enc('1') }]), { maxNameLength: 255 }),
      'DAR_ZIP_LIMIT',
    ],
    [
      'ZIP64 entry count marker',
      () => readAll(buildZip([{ name: 'a', data: enc('1') }], { countOverride: 0xffff })),
      'DAR_ZIP_UNSUPPORTED',
    ],
    [
      'ZIP64 size marker',
      () => readAll(buildZip([{ name: 'a', data: enc('1'), uncompressedSize: 0xffffffff }])),
      'DAR_ZIP_UNSUPPORTED',
    ],
    [
      'encrypted entry',
      () => readAll(buildZip([{ name: 'a', data: enc('1'), flags: 1 }])),
      'DAR_ZIP_UNSUPPORTED',
    ],
    [
      'compression method 12 (bzip2)',
      () => readAll(buildZip([{ name: 'a', data: enc('1'), rawMethod: 12 }])),
      'DAR_ZIP_UNSUPPORTED',
    ],
    [
      'duplicate entry names',
      () =>
        readAll(
          buildZip([
            { name: 'a', data: enc('1') },
            { name: 'a', data: enc('2') },
          ]),
        ),
      'DAR_ZIP_MALFORMED',
    ],
    [
      'entry count larger than the directory',
      () => readAll(buildZip([{ name: 'a', data: enc('1') }], { countOverride: 2 })),
      'DAR_ZIP_TRUNCATED',
    ],
    [
      'local header signature destroyed',
      () => {
        const b = ok.slice();
        b[0] = 0;
        return readAll(b);
      },
      'DAR_ZIP_MALFORMED',
    ],
    [
      'central directory signature destroyed',
      () => {
        const b = ok.slice();
        const p = b.length - 22 - 47;
        b[p] = 0;
        return readAll(b);
      },
      'DAR_ZIP_MALFORMED',
    ],
    [
      'not a zip at all',
      () => readAll(enc('just some text, long enough to hold an EOCD record')),
      'DAR_ZIP_TRUNCATED',
    ],
  ];
  it.each(BAD_ZIPS)('rejects: %s', (_l, f, expected) => {
    expect(code(f)).toBe(expected);
  });

  it('never throws anything but a DarError on random corruption of a valid zip', () => {
    const base = buildZip([
      { name: 'a', data: enc('hello '.repeat(50)) },
      { name: 'b', data: enc('x'), method: 0 },
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: base.length - 1 }), fc.integer({ min: 0, max: 255 }), (i, v) => {
        const b = base.slice();
        b[i] = v;
        const c = code(() => readAll(b));
        return c !== 'not a DarError';
      }),
      { numRuns: 300 },
    );
  });
});

describe('manifest', () => {
  const main = 'pkg-1.0.0-' + 'ab'.repeat(32) + '/pkg-1.0.0-' + 'ab'.repeat(32) + '.dalf';
  const dep = 'pkg-1.0.0-' + 'ab'.repeat(32) + '/daml-prim-' + 'cd'.repeat(32) + '.dalf';
  const lines = ['Manifest-Version: 1.0', `Main-Dalf: ${main}`, `Dalfs: ${main}, ${dep}`, 'Format: daml-lf'];

  it.each([['\n'], ['\r\n']])('joins 72-byte continuation lines (line end %j)', (eol) => {
    const text = wrapManifest(lines, eol);
    expect(text.split(eol).every((l) => enc(l).length <= 72)).toBe(true);
    const m = parseDarManifest(enc(text));
    expect(m.mainDalf).toBe(main);
    expect(m.dalfs).toEqual([main, dep]);
  });

  it('drops exactly one leading space of a continuation (a value may continue with a space)', () => {
    const m = parseDarManifest(enc('Main-Dalf: a\n  b.dalf\nDalfs: a b.dalf\n'));
    expect(m.mainDalf).toBe('a b.dalf');
  });

  const BAD: readonly [string, string, DarErrorCode][] = [
    ['no Main-Dalf', 'Manifest-Version: 1.0\nDalfs: a.dalf\n', 'DAR_MANIFEST_INVALID'],
    ['no Dalfs', 'Main-Dalf: a.dalf\n', 'DAR_MANIFEST_INVALID'],
    ['Main-Dalf not in Dalfs', 'Main-Dalf: a.dalf\nDalfs: b.dalf\n', 'DAR_MANIFEST_INVALID'],
    ['Format other than daml-lf', 'Main-Dalf: a.dalf\nDalfs: a.dalf\nFormat: zip\n', 'DAR_MANIFEST_INVALID'],
    ['continuation before any header', ' x\nMain-Dalf: a.dalf\n', 'DAR_MANIFEST_INVALID'],
    ['line without ": "', 'Main-Dalf a.dalf\n', 'DAR_MANIFEST_INVALID'],
    [
      'Main-Dalf after a blank line (other section)',
      'Dalfs: a.dalf\n\nMain-Dalf: a.dalf\n',
      'DAR_MANIFEST_INVALID',
    ],
  ];
  it.each(BAD)('rejects: %s', (_l, text, expected) => {
    expect(code(() => parseDarManifest(enc(text)))).toBe(expected);
  });
  it('rejects invalid UTF-8', () => {
    expect(code(() => parseDarManifest(Uint8Array.from([0x4d, 0xff, 0x3a])))).toBe('DAR_MANIFEST_INVALID');
  });
});

describe('DAR assembly', () => {
  const pkg = (name: string) => encodePackage({ strings: [name, '1.0.0', 'M', 'T'], dnames: [[2], [3]] });
  const a = buildDalf(pkg('main-pkg'));
  const b = buildDalf(pkg('dep-pkg'));
  const opts = { inflateRaw, sha256: sha256Node };

  it('loads main first, then dependencies; ids recomputed', () => {
    const dar = loadDar(
      buildDar([
        { path: 'x/main.dalf', bytes: a.bytes },
        { path: 'x/dep.dalf', bytes: b.bytes },
      ]),
      opts,
    );
    expect(dar.packages.map((p) => [p.name, p.main, p.packageId])).toEqual([
      ['main-pkg', true, a.id],
      ['dep-pkg', false, b.id],
    ]);
  });

  it('ignores zip entries the manifest does not list (sources, .hi files)', () => {
    const bytes = buildZip([
      { name: 'META-INF/MANIFEST.MF', data: enc('Main-Dalf: m.dalf\nDalfs: m.dalf\n') },
      { name: 'm.dalf', data: a.bytes },
      { name: 'src/Junk.hi', data: enc('not protobuf at all') },
    ]);
    expect(loadDar(bytes, opts).packages).toHaveLength(1);
  });

  const BAD_DARS: readonly [string, () => Uint8Array, DarErrorCode][] = [
    ['no manifest', () => buildZip([{ name: 'm.dalf', data: a.bytes }]), 'DAR_MANIFEST_INVALID'],
    [
      'manifest without Main-Dalf',
      () => buildDar([{ path: 'm.dalf', bytes: a.bytes }], 'Dalfs: m.dalf\n'),
      'DAR_MANIFEST_INVALID',
    ],
    [
      'listed dalf missing from the zip',
      () => buildDar([{ path: 'm.dalf', bytes: a.bytes }], 'Main-Dalf: m.dalf\nDalfs: m.dalf, gone.dalf\n'),
      'DAR_ENTRY_MISSING',
    ],
    [
      'a package whose bytes do not hash to its declared id',
      () => buildDar([{ path: 'm.dalf', bytes: buildArchive(buildPayload(pkg('x')), { hash: b.id }) }]),
      'DAR_PACKAGE_HASH_MISMATCH',
    ],
    [
      'an LF 1 package',
      () =>
        buildDar([
          { path: 'm.dalf', bytes: buildArchive(buildPayload(pkg('x'), { lf1: true, minor: '15' })) },
        ]),
      'DAR_UNSUPPORTED_LF_VERSION',
    ],
    [
      'a huge manifest',
      () => buildZip([{ name: 'META-INF/MANIFEST.MF', data: new Uint8Array(2 * 1024 * 1024) }]),
      'DAR_ZIP_LIMIT',
    ],
  ];
  it.each(BAD_DARS)('rejects: %s', (_l, make, expected) => {
    expect(code(() => loadDar(make(), opts))).toBe(expected);
  });

  it('names the dalf in errors from inside a package', () => {
    const bytes = buildDar([
      { path: 'dir/bad.dalf', bytes: buildArchive(buildPayload(pkg('x')), { hash: b.id }) },
    ]);
    expect(() => loadDar(bytes, opts)).toThrow(/dir\/bad\.dalf/);
  });

  it('inflateRawNode caps output (zip-bomb guard at the io edge)', () => {
    const z = deflateRawSync(new Uint8Array(1 << 20));
    expect(() => inflateRawNode(z, 1000)).toThrow();
    expect(inflateRawNode(z, 1 << 20).length).toBe(1 << 20);
    expect(inflateRawSync(z).length).toBe(1 << 20);
  });
});
