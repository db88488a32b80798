/**
 * The fixture type files (fixtures/types): they are exactly what test/types/derive-type-file.ts
 * derives from the V12 typed trees, they round-trip through parse/format, typing the positional
 * values with them reproduces `typedCreateArgForV12` exactly, and (when ../shared/dars is present)
 * they equal the types of the real splice-amulet-0.1.17.dar reachable from the templates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { computeTypedContractInstanceHash } from '../../src/core/hash/contract-hash.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { loadDar } from '../../src/core/types/dar/index.js';
import { createTypeEnv, parseQualifiedName, type TypeEnv } from '../../src/core/types/type-env.js';
import { formatTypeFile, parseTypeFile } from '../../src/core/types/type-file.js';
import { typeCreateArgument } from '../../src/core/types/type-value.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { toTypedValue, toValue } from '../hash/vector-value.js';
import { repoRoot, SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { deriveFixture, FIXTURES } from './derive-type-file.js';
import { reachableTypes } from './type-closure.js';

const fixtureText = (f: string) => readFileSync(join(repoRoot, 'fixtures', 'types', f), 'utf8');
const blobs = loadContractIdVectors().blobVectors;

describe.each(FIXTURES.map((f) => [f.file, f] as const))('%s', (file, f) => {
  it('is exactly what derive-type-file.ts derives from the typed trees', () => {
    expect(fixtureText(file)).toBe(deriveFixture(file));
  });
  it('parses, keeps its provenance, and formats back to the same packages', () => {
    const tf = parseTypeFile(fixtureText(file));
    expect(tf.provenance.source_repo).toMatch(/splice/);
    expect(tf.provenance.source_commit).toMatch(/f889a438/);
    const again = parseTypeFile(formatTypeFile(tf.packages, tf.provenance));
    expect(formatTypeFile(again.packages, again.provenance)).toBe(formatTypeFile(tf.packages, tf.provenance));
  });
  it.each(f.vectors.map((n) => [n] as const))('types %s back to its typed tree and contract hash', (name) => {
    const v = blobs.find((b) => b.name === name);
    if (v?.typedCreateArgForV12 === undefined) throw new Error('no vector');
    const env = createTypeEnv(parseTypeFile(fixtureText(file)).packages);
    const tid = v.decoded.templateId;
    const q = parseQualifiedName(tid.slice(65));
    if (q === undefined) throw new Error('bad template');
    const typed = typeCreateArgument(
      {
        packageName: v.decoded.packageName,
        templateId: { packageId: tid.slice(0, 64), ...q },
        createArg: toValue(v.typedCreateArgForV12),
      },
      env,
    );
    expect(typed.upgraded).toBe(false);
    expect(typed.value).toEqual(toTypedValue(v.typedCreateArgForV12));
    expect(bytesToHex(computeTypedContractInstanceHash(v.decoded.packageName, q, typed.value))).toBe(
      v.expected.contractHashHex,
    );
  });
});

const dars = sharedDarsDir();
let darEnvCache: TypeEnv | undefined;
function darEnv(): TypeEnv {
  if (darEnvCache === undefined) {
    const d = loadDar(new Uint8Array(readFileSync(join(dars as string, 'splice-amulet-0.1.17.dar'))), {
      sha256: sha256Node,
      inflateRaw: (b: Uint8Array) => new Uint8Array(inflateRawSync(b)),
    });
    darEnvCache = createTypeEnv(d.packages.map((p) => p.types));
  }
  return darEnvCache;
}
describe.skipIf(dars === null)('fixtures vs the real DAR', () => {
  it.each(FIXTURES.map((f) => [f.file, f] as const))(
    '%s equals the DAR types reachable from its templates',
    (file, f) => {
      const env = darEnv();
      const templates = f.vectors.map((n) => {
        const tid = (blobs.find((b) => b.name === n) as (typeof blobs)[number]).decoded.templateId;
        return {
          packageId: tid.slice(0, 64),
          ...(parseQualifiedName(tid.slice(65)) as { module: string[]; entity: string[] }),
        };
      });
      const fromDar = parseTypeFile(formatTypeFile(reachableTypes(env, templates)));
      const fromFixture = parseTypeFile(fixtureText(file));
      const norm = (ps: typeof fromDar.packages) =>
        formatTypeFile([...ps].sort((a, b) => (a.packageId < b.packageId ? -1 : 1)));
      expect(norm(fromFixture.packages)).toBe(norm(fromDar.packages));
    },
  );
});
if (dars === null) it.skip(SHARED_DARS_SKIP_REASON, () => {});
