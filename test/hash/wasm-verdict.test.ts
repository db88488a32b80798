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
import type { Value } from '../../src/core/codec/value.js';
import { computeContractId } from '../../src/core/hash/compute-contract-id.js';
import {
  computeVerdictOnePass,
  computeVerdictOnePassTs,
  lastOnePassSpans,
} from '../../src/core/hash/one-pass-verdict.js';
import { computeVerdictWasm, hasWasmVerdict } from '../../src/core/hash/wasm-verdict.js';
import { decodeBase64Node } from '../../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { arbDecodedContract } from '../helpers/arbitraries.js';
import { arbMutatedVector, arbMutation, mutate, realBlobs } from '../helpers/blob-fuzz.js';
import { repoRoot } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const vectors = loadContractIdVectors().blobVectors.filter((v) => !v.contractId.startsWith('ca12', 66));
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
 * Runs both walks on one input; fails when the module accepts what the TS walk does not, or with
 * other preimages. Returns which of the two answered.
 */
function compare(
  blob: Uint8Array,
  contractId: string,
  version: 'v10' | 'v11',
): { wasm: boolean; ts: boolean } {
  const w = recording();
  const t = recording();
  const wasm = computeVerdictWasm(blob, contractId, version, w.sha);
  const ts = computeVerdictOnePassTs(blob, contractId, version, t.sha);
  if (wasm !== null) expect(ts).toBe(wasm);
  // every preimage the module had hashed, the TS walk hashed identically (the module may stop
  // earlier, never later)
  expect(t.seen.slice(0, w.seen.length)).toEqual(w.seen);
  return { wasm: wasm !== null, ts: ts !== null };
}

describe('the WebAssembly one-pass walk', () => {
  it('is instantiated here, and src/core/hash/generated/one-pass-wasm.ts matches `npm run gen:wasm`', () => {
    expect(hasWasmVerdict()).toBe(true);
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'gen-wasm.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(out).toContain('up to date');
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

  it('never accepts more than the TS walk on 4,000 mutated real blobs, with their own and a foreign ID', () => {
    fc.assert(
      fc.property(arbMutatedVector, fc.nat(), ({ index, blob }, k) => {
        const v = loadContractIdVectors().blobVectors[index]!;
        if (v.contractId.startsWith('ca12', 66)) return;
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
      const blob = realBlobs[loadContractIdVectors().blobVectors.indexOf(v)]!;
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
});
