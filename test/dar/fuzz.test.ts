/**
 * Hostile-input property (style.md "Hostile input"): random corruption of an LF 2.x package —
 * a small built one, and (when ../shared/dars is present) a real stdlib package — never makes
 * the decoder throw anything but a DarError, and never hangs or overflows the stack.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeArchive,
  decodeArchivePayload,
  decodeLf2Package,
  decodeZip,
} from '../../src/core/types/dar/index.js';
import { DarError } from '../../src/errors/dar.js';
import { inflateRawNode } from '../../src/io/files/dar-file.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { encodePackage, T } from './build.js';

const dir = sharedDarsDir();
if (dir === null) console.warn(`test/dar/fuzz.test.ts (real package part): ${SHARED_DARS_SKIP_REASON}`);

function onlyDarErrors(bytes: Uint8Array, runs: number): void {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.option(fc.nat(bytes.length), { nil: undefined }),
      (edits, cut) => {
        const b = bytes.slice(0, cut ?? bytes.length);
        for (const [i, v] of edits) if (i < b.length) b[i] = v;
        try {
          decodeLf2Package(b, { packageId: 'ab'.repeat(32), lfVersion: '2.1' });
        } catch (e) {
          if (!(e instanceof DarError)) throw e;
        }
      },
    ),
    { numRuns: runs },
  );
}

describe('corrupted packages only ever raise DarError', () => {
  it('a small built package (500 mutations)', () => {
    const pkg = encodePackage({
      strings: ['p', '1', 'M', 'T', 'f', 'g', 'a'],
      dnames: [[2], [3]],
      types: [
        T.builtin(7),
        T.builtin(5, [T.nat(10)]),
        T.tapp(T.builtin(9), T.interned(1)),
        T.con({ self: true }, 0, 1),
      ],
      modules: [
        {
          name: 0,
          templates: [1],
          dataTypes: [
            {
              name: 1,
              record: [
                [4, T.interned(2)],
                [5, T.interned(3)],
              ],
            },
          ],
        },
      ],
    });
    expect(() => decodeLf2Package(pkg, { packageId: 'ab'.repeat(32), lfVersion: '2.1' })).not.toThrow();
    onlyDarErrors(pkg, 500);
  });

  it.skipIf(dir === null)(
    'a real package: daml-prim-DA-Types of splice-amulet-0.1.17.dar (150 mutations)',
    () => {
      const zip = decodeZip(readFileSync(join(dir!, 'splice-amulet-0.1.17.dar')), {
        inflateRaw: inflateRawNode,
      });
      const entry = zip.entries.find((e) => e.name.includes('/daml-prim-DA-Types-'))!;
      const lf2 = decodeArchivePayload(decodeArchive(zip.readEntry(entry.name), sha256Node).payload).lf2;
      onlyDarErrors(lf2, 150);
    },
  );
});
