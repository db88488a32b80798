/**
 * Differential test of the WebAssembly one-pass walk (src/core/hash/wasm-verdict.ts,
 * wasm/one-pass.ts) against the TS one-pass walk (one-pass-verdict.ts): whatever the module
 * accepts, the TS walk accepts too, with the very same hash preimages (recorded through the SHA-256
 * seam) and the same spans; on every real V10/V11 vector, on mutated real blobs, on every
 * truncation, and on generated contracts of every value kind (numerics of up to 38 digits, int64
 * and time extremes, non-ASCII text, maps, variants, nested records).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { CURRENT_VALUE, K } from '../../src/core/codec/schema.js';
import type { Value } from '../../src/core/codec/value.js';
import { computeContractId } from '../../src/core/hash/compute-contract-id.js';
import {
  computeTypedVerdictOnePassTs,
  computeVerdictOnePass,
  computeVerdictOnePassTs,
  lastOnePassSpans,
} from '../../src/core/hash/one-pass-verdict.js';
import {
  computeTypedVerdictWasm,
  computeVerdictWasm,
  hasWasmVerdict,
} from '../../src/core/hash/wasm-verdict.js';
import { createTypeEnv, type TypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { decodeBase64Node } from '../../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { arbDecodedContract } from '../helpers/arbitraries.js';
import { arbMutatedVector, arbMutation, mutate, realBlobs } from '../helpers/blob-fuzz.js';
import { arbGenericArgument, env as genericEnv, templateId } from '../helpers/generic-template.js';
import { repoRoot } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

const all = loadContractIdVectors().blobVectors;
const vectors = all.filter((v) => !v.contractId.startsWith('ca12', 66));
const typedVectors = all.filter((v) => v.contractId.startsWith('ca12', 66));
const splice = spliceTypeEnv();
const versionOf = (id: string): 'v10' | 'v11' => (id.startsWith('ca10', 66) ? 'v10' : 'v11');

/** A binary-string SHA-256 that records what it hashed. */
function recording(): { sha: (d: Uint8Array) => string; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    sha: (d) => {
      seen.push(Buffer.from(d).toString('hex'));
      return sha256NodeBinary(d);
    },
  };
}

/**
 * Runs both walks on one input (each with its own recording SHA-256); fails when the module accepts
 * what the TS walk does not, answers otherwise (`agree`), or hashed other preimages — the module may
 * stop earlier, never later. Returns which of the two answered.
 */
function compareRuns<T>(
  wasmRun: (sha: (d: Uint8Array) => string) => T | null,
  tsRun: (sha: (d: Uint8Array) => string) => T | null,
  agree: (wasm: T, ts: T | null) => void,
): { wasm: boolean; ts: boolean } {
  const w = recording();
  const t = recording();
  const wasm = wasmRun(w.sha);
  const ts = tsRun(t.sha);
  if (wasm !== null) agree(wasm, ts);
  expect(t.seen.slice(0, w.seen.length)).toEqual(w.seen);
  return { wasm: wasm !== null, ts: ts !== null };
}

/** V10/V11: the same contract hash */
const compare = (blob: Uint8Array, contractId: string, version: 'v10' | 'v11') =>
  compareRuns(
    (sha) => computeVerdictWasm(blob, contractId, version, sha),
    (sha) => computeVerdictOnePassTs(blob, contractId, version, sha),
    (wasm, ts) => expect(ts).toBe(wasm),
  );

/** V12: the same contract hash and template resolution */
const compareTyped = (blob: Uint8Array, contractId: string, types: TypeEnv) =>
  compareRuns(
    (sha) => computeTypedVerdictWasm(blob, contractId, types, sha),
    (sha) => computeTypedVerdictOnePassTs(blob, contractId, types, sha),
    (wasm, ts) => {
      expect(ts?.contractHash).toBe(wasm.contractHash);
      expect(ts?.resolution).toBe(wasm.resolution);
    },
  );

describe('the WebAssembly one-pass walk', () => {
  it('is instantiated here, and src/core/hash/generated/one-pass-wasm.ts matches `npm run gen:wasm`', () => {
    expect(hasWasmVerdict()).toBe(true);
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'gen-wasm.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(out).toContain('up to date');
  });

  it('reads kinds as the current layout numbers its Value fields (type nodes use the one for the other)', () => {
    for (const k of Object.values(K)) expect(CURRENT_VALUE.fieldByKind[k]).toBe(k);
    expect(Object.values(K).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it('answers every real V10/V11 vector like the TS walk, with the same spans', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(7);
    for (const v of vectors) {
      const blob = decodeBase64Node(v.createdEventBlobBase64) as Uint8Array;
      const version = versionOf(v.contractId);
      expect(compare(blob, v.contractId, version), v.name).toEqual({ wasm: true, ts: true });
      expect(computeVerdictOnePassTs(blob, v.contractId, version, sha256NodeBinary)).not.toBeNull();
      const tsSpans = { ...lastOnePassSpans };
      // computeVerdictOnePass takes the module's answer and fills the same spans from it
      expect(computeVerdictOnePass(blob, v.contractId, version, sha256NodeBinary)).not.toBeNull();
      expect({ ...lastOnePassSpans }).toEqual(tsSpans);
      // a foreign ID (of the same version) is no match
      const other = vectors.find((o) => o !== v && versionOf(o.contractId) === version);
      if (other) expect(computeVerdictWasm(blob, other.contractId, version, sha256NodeBinary)).toBeNull();
    }
  });

  it('answers every real V12 vector like the TS walk, typed with the Splice types', () => {
    expect(typedVectors.length).toBeGreaterThanOrEqual(3);
    for (const v of typedVectors) {
      const blob = decodeBase64Node(v.createdEventBlobBase64) as Uint8Array;
      expect(compareTyped(blob, v.contractId, splice), v.name).toEqual({ wasm: true, ts: true });
      // without the template's types there is no answer
      expect(computeTypedVerdictWasm(blob, v.contractId, createTypeEnv([]), sha256NodeBinary)).toBeNull();
      for (let n = 0; n < blob.length; n++) compareTyped(blob.subarray(0, n), v.contractId, splice);
    }
  });

  it('never accepts more than the TS walk on 4,000 mutated real blobs, with their own and a foreign ID', () => {
    fc.assert(
      fc.property(arbMutatedVector, fc.nat(), ({ index, blob }, k) => {
        const v = all[index]!;
        if (v.contractId.startsWith('ca12', 66)) {
          compareTyped(blob, v.contractId, splice);
          return;
        }
        const version = versionOf(v.contractId);
        compare(blob, v.contractId, version);
        const foreign = vectors[k % vectors.length]!;
        compare(blob, foreign.contractId, versionOf(foreign.contractId));
      }),
      { numRuns: 4000, seed: 20261124 },
    );
  });

  it('on every truncation of every real V10/V11 blob', () => {
    for (const v of vectors) {
      const blob = realBlobs[all.indexOf(v)]!;
      for (let n = 0; n < blob.length; n++)
        compare(blob.subarray(0, n), v.contractId, versionOf(v.contractId));
    }
  });

  it('agrees on generated contracts of every value kind, V10 and V11, whole and damaged', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        arbDecodedContract,
        fc.constantFrom('v10' as const, 'v11' as const),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }),
        fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
        (c, version, discriminator, salt, createdAt, mutations) => {
          // V11 hashes a record argument only
          const createArg: Value =
            version === 'v11' && c.createArg.kind !== 'record'
              ? { kind: 'record', fields: [c.createArg] }
              : c.createArg;
          const computed = computeContractId({
            contract: { ...c, createArg, key: null, packageVersion: [], createdAt },
            version,
            discriminator,
            salt,
            sha256: sha256Node,
          });
          const blob = encodeCreatedEventBlob(computed.contract);
          // the module answers exactly what the TS walk answers (which declines a few shapes the
          // encoder writes, e.g. an empty map key left out as a proto3 default)
          const r = compare(blob, computed.contractIdHex, version);
          expect(r.wasm).toBe(r.ts);
          if (r.wasm) answered++;
          // and the same blob damaged: whatever of it the module walks, the TS walk walks alike
          compare(mutate(blob, mutations), computed.contractIdHex, version);
        },
      ),
      { numRuns: 600, seed: 42 },
    );
    expect(answered).toBeGreaterThan(400);
  });

  it('agrees on generated V12 contracts of a generic template, whole and damaged', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        arbGenericArgument,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
        (createArg, salt, mutations) => {
          let computed: ReturnType<typeof computeContractId>;
          try {
            computed = computeContractId({
              contract: {
                serializationVersion: '2.1',
                layout: 'current',
                packageName: 'gen',
                templateId,
                createArg,
                signatories: ['alice::1220'],
                stakeholders: ['alice::1220', 'bob::1220'],
                nonMaintainerSignatories: ['alice::1220'],
                nonSignatoryStakeholders: ['bob::1220'],
                createdAt: 1_700_000_000_000_000n,
                key: null,
                packageVersion: [],
              },
              version: 'v12',
              discriminator: new Uint8Array(32),
              salt,
              types: genericEnv,
              sha256: sha256Node,
            });
          } catch {
            // a value that does not fit the type (a scale-9 numeric): nothing to verify
            return;
          }
          const blob = encodeCreatedEventBlob(computed.contract);
          const r = compareTyped(blob, computed.contractIdHex, genericEnv);
          expect(r.wasm).toBe(r.ts);
          if (r.wasm) answered++;
          compareTyped(mutate(blob, mutations), computed.contractIdHex, genericEnv);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('declines (and stays sound) where a type writes more than its blob: long-named empty records', () => {
    // 12,000 empty records of a type whose qualified name is ~900 bytes: 48 KB of blob, 11 MB of
    // preimage — past the module's room; it must decline (the TS walk answers) and not write over
    // its tables: every real vector still verifies through it afterwards
    const long = Array.from({ length: 9 }, (_, i) => `Segment${i}${'x'.repeat(90)}`);
    const PKG = 'ef'.repeat(32);
    const env = createTypeEnv(
      parseTypeFile({
        format: 'reserve-audit/type-file@1',
        packages: [
          {
            id: PKG,
            name: 'wide',
            version: '1.0.0',
            dataTypes: {
              'W:T': { record: [['xs', { list: { con: `${long.join('.')}:E` } }]] },
              [`${long.join('.')}:E`]: { record: [] },
            },
          },
        ],
      }).packages,
    );
    const createArg: Value = {
      kind: 'record',
      fields: [
        {
          kind: 'list',
          elements: Array.from({ length: 12_000 }, (): Value => ({ kind: 'record', fields: [] })),
        },
      ],
    };
    const computed = computeContractId({
      contract: {
        serializationVersion: '2.1',
        layout: 'current',
        packageName: 'wide',
        templateId: { packageId: PKG, module: ['W'], entity: ['T'] },
        createArg,
        signatories: ['alice::1220'],
        stakeholders: ['alice::1220'],
        nonMaintainerSignatories: ['alice::1220'],
        nonSignatoryStakeholders: [],
        createdAt: 1_700_000_000_000_000n,
        key: null,
        packageVersion: [],
      },
      version: 'v12',
      discriminator: new Uint8Array(32),
      salt: new Uint8Array(32).fill(7),
      types: env,
      sha256: sha256Node,
    });
    const blob = encodeCreatedEventBlob(computed.contract);
    expect(blob.length).toBeLessThan(65_536);
    expect(computeTypedVerdictWasm(blob, computed.contractIdHex, env, sha256NodeBinary)).toBeNull();
    expect(computeTypedVerdictOnePassTs(blob, computed.contractIdHex, env, sha256NodeBinary)).not.toBeNull();
    for (const v of typedVectors)
      expect(
        computeTypedVerdictWasm(
          decodeBase64Node(v.createdEventBlobBase64) as Uint8Array,
          v.contractId,
          splice,
          sha256NodeBinary,
        ),
      ).not.toBeNull();
    for (const v of vectors)
      expect(
        computeVerdictWasm(
          decodeBase64Node(v.createdEventBlobBase64) as Uint8Array,
          v.contractId,
          versionOf(v.contractId),
          sha256NodeBinary,
        ),
      ).not.toBeNull();
  });
});
