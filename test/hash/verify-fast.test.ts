/**
 * Differential test of the one-pass verifier (verify-contract-id-fast.ts) against verifyContractId:
 * the same status, version, suffixes, hashes and reason codes on every real vector, on mutated real
 * blobs (the fuzz corpus of test/helpers/blob-fuzz.ts, paired with the vector's own contract ID and
 * with a foreign one) and on every truncation of every real blob.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBase64 } from '../../src/core/codec/index.js';
import type { ContractIdVerification } from '../../src/core/hash/verify-contract-id.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import {
  isContractIdVerifiedFast,
  verifyContractIdFast,
} from '../../src/core/hash/verify-contract-id-fast.js';
import { decodeBase64Node, decodeBase64NodeScratch } from '../../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { arbMutatedVector, realBlobs } from '../helpers/blob-fuzz.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

const vectors = loadContractIdVectors().blobVectors;
const types = spliceTypeEnv();

function summary(r: ContractIdVerification) {
  return {
    ok: r.ok,
    status: r.status,
    version: r.version,
    contractHash: r.contractHash,
    unicum: r.unicum,
    expectedSuffix: r.expectedSuffix,
    actualSuffix: r.actualSuffix,
    embeddedContractIdMatches: r.embeddedContractIdMatches,
    embeddedContractId: r.embeddedContractId,
    reasons: r.reasons.map((x) => [x.code, x.mismatch]),
  };
}

/** Compares both paths; returns true when the fast path answered itself (no decoded contract). */
function same(contractId: string, blob: Uint8Array | string): boolean {
  const fast = verifyContractIdFast({ contractId, blob });
  const full = verifyContractId({ contractId, blob });
  expect(summary(fast)).toEqual(summary(full));
  // and with the native base64 decoder of the edges (src/io/node-base64.ts)
  const native = verifyContractIdFast({ contractId, blob, base64: decodeBase64Node });
  expect(summary(native)).toEqual(summary(full));
  expect(native.contract === null).toBe(fast.contract === null);
  // and with the edges' one-pass seams (base64 into a reused buffer, binary-string digests)
  const edge = verifyContractIdFast({
    contractId,
    blob,
    base64: decodeBase64Node,
    base64Scratch: decodeBase64NodeScratch,
    sha256: sha256Node,
    sha256Binary: sha256NodeBinary,
  });
  expect(summary(edge)).toEqual(summary(full));
  expect(edge.contract === null).toBe(fast.contract === null);
  // the verdict-only entry point: exactly the full path's ok, through the seams and without
  const edgeSeams = {
    base64: decodeBase64Node,
    base64Scratch: decodeBase64NodeScratch,
    sha256: sha256Node,
    sha256Binary: sha256NodeBinary,
  };
  // (without the seams it is verifyContractIdFast's ok by construction)
  expect(isContractIdVerifiedFast({ contractId, blob, ...edgeSeams })).toBe(full.ok);
  // with the Daml types V12 needs (V12 is then verified too, from its decoded argument; V10/V11
  // do not use types)
  if (!contractId.startsWith('ca12', 66)) return fast.contract === null && full.contract !== null;
  const typedFull = verifyContractId({ contractId, blob, types });
  // (the pure base64 path of V12 is the full path's own decode)
  for (const base64 of typeof blob === 'string' ? [decodeBase64Node] : [undefined]) {
    const typedFast = verifyContractIdFast({ contractId, blob, types, base64 });
    expect(summary(typedFast)).toEqual(summary(typedFull));
    expect(typedFast.typing).toEqual(typedFull.typing);
    if (typedFast.contract !== null && typedFull.contract !== null)
      expect(typedFast.contract).toEqual(typedFull.contract);
  }
  // V12 through the one-pass seams of the edges
  const typedEdge = verifyContractIdFast({
    contractId,
    blob,
    types,
    base64: decodeBase64Node,
    base64Scratch: decodeBase64NodeScratch,
    sha256: sha256Node,
    sha256Binary: sha256NodeBinary,
  });
  expect(summary(typedEdge)).toEqual(summary(typedFull));
  expect(typedEdge.typing).toEqual(typedFull.typing);
  expect(isContractIdVerifiedFast({ contractId, blob, types, ...edgeSeams })).toBe(typedFull.ok);
  return fast.contract === null && full.contract !== null;
}

describe('verifyContractIdFast agrees with verifyContractId', () => {
  it('on every real vector, as base64 and as bytes; V10/V11 take the fast path', () => {
    let fast = 0;
    for (const v of vectors) {
      const viaFast = same(v.contractId, v.createdEventBlobBase64);
      same(v.contractId, Uint8Array.from(Buffer.from(v.createdEventBlobBase64, 'base64')));
      const version = v.contractId.slice(66, 70);
      if (version === 'ca10' || version === 'ca11') {
        expect(viaFast, `${v.name} should take the fast path`).toBe(true);
        fast++;
      } else {
        expect(viaFast).toBe(false);
        // V12 with types: verified by the fast path itself
        expect(
          verifyContractIdFast({ contractId: v.contractId, blob: v.createdEventBlobBase64, types }).ok,
        ).toBe(true);
      }
    }
    expect(fast).toBeGreaterThan(0);
  });

  it('answers every real vector (V12 with its types) in one pass, without a decoded contract', () => {
    for (const v of vectors) {
      for (const blob of [
        v.createdEventBlobBase64,
        Uint8Array.from(Buffer.from(v.createdEventBlobBase64, 'base64')),
      ]) {
        for (const edge of [false, true]) {
          const r = verifyContractIdFast({
            contractId: v.contractId,
            blob,
            types,
            ...(edge
              ? { base64Scratch: decodeBase64NodeScratch, sha256: sha256Node, sha256Binary: sha256NodeBinary }
              : {}),
          });
          expect(r.ok, v.name).toBe(true);
          expect(r.contract, v.name).toBeNull();
        }
      }
    }
  });

  it('on 10,000 mutated real blobs (the default fuzz corpus size) with their own and a foreign contract ID', () => {
    const statuses = new Set<string>();
    fc.assert(
      fc.property(arbMutatedVector, ({ index, blob }) => {
        const own = vectors[index]!.contractId;
        const foreign = vectors[(index + 1) % vectors.length]!.contractId;
        same(own, blob);
        statuses.add(verifyContractId({ contractId: own, blob }).status);
        same(foreign, formatBase64(blob));
      }),
      { numRuns: 10_000 },
    );
    // the corpus reaches both failure kinds (decode errors, and blobs that decode to another hash)
    expect(statuses).toContain('could-not-check');
    expect(statuses).toContain('mismatch');
    // 10,000 cases through up to seven verifications each: slow on a loaded 2-core machine
  }, 150_000);

  it('on every truncation of every real blob', () => {
    realBlobs.forEach((blob, i) => {
      for (let n = 0; n < blob.length; n++) same(vectors[i]!.contractId, blob.subarray(0, n));
    });
  });

  it('after a pass, on the same blob with one byte of a remembered party or identifier made invalid', () => {
    // the one pass remembers validated parties and template identifiers by their bytes: a blob
    // that differs from a remembered one in a single byte must be checked afresh (and fail)
    const enc = new TextEncoder();
    let changed = 0;
    vectors.forEach((v, i) => {
      const blob = realBlobs[i]!;
      same(v.contractId, v.createdEventBlobBase64);
      const needles = [
        ...v.decoded.signatories,
        ...v.decoded.nonSignatoryStakeholders,
        v.decoded.templateId.split(':')[0]!,
      ];
      for (const needle of needles) {
        const bytes = enc.encode(needle);
        const at = indexOfBytes(blob, bytes);
        if (at < 0) continue;
        for (const offset of [1, Math.floor(bytes.length / 2) - 1, bytes.length - 2]) {
          for (const bad of [0x21, 0x2e, 0x41, 0xc3]) {
            const copy = blob.slice();
            copy[at + offset] = bad;
            same(v.contractId, formatBase64(copy));
            same(v.contractId, copy);
            changed++;
          }
        }
      }
    });
    expect(changed).toBeGreaterThan(100);
  });

  it('on a V10/V11 blob under the wrong version byte and a non-canonical ID', () => {
    for (const v of vectors) {
      const swapped =
        v.contractId.slice(0, 69) + (v.contractId[69] === '0' ? '1' : '0') + v.contractId.slice(70);
      same(swapped, v.createdEventBlobBase64);
      same(v.contractId.toUpperCase(), v.createdEventBlobBase64);
    }
  });

  it('on base64 text the strict parser rejects but Node decodes (the native seam falls back)', () => {
    const v = vectors.find((x) => x.contractId.slice(66, 70) === 'ca10');
    if (v === undefined) throw new Error('no V10 vector');
    const b64 = v.createdEventBlobBase64;
    const variants = [
      ` ${b64}`,
      `${b64}\n`,
      `${b64.slice(0, 40)}\n${b64.slice(40)}`,
      b64.replace(/=+$/, ''),
      b64.replaceAll('+', '-').replaceAll('/', '_'),
      `${b64}====`,
      `${b64.slice(0, 8)}=${b64.slice(9)}`,
      b64.slice(0, -4),
      '',
    ];
    // non-zero unused bits before the padding
    const last = b64.replace(/=+$/, '');
    const pad = b64.length - last.length;
    if (pad > 0) {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const c = alphabet.indexOf(last[last.length - 1] ?? 'A');
      variants.push(last.slice(0, -1) + (alphabet[c ^ 1] ?? 'A') + '='.repeat(pad));
    }
    for (const t of variants) {
      expect(decodeBase64Node(t) === null || t === b64.slice(0, -4) || t === '').toBe(true);
      same(v.contractId, t);
    }
  });
});

/** The first index of `needle` in `hay`, or -1. */
function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
