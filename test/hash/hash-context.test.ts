/**
 * A HashContext (src/core/hash/hash-context.ts) only makes hashing cheaper, never different: one
 * context shared by every blob vector, interleaved with mutated blobs and other versions, gives the
 * same verifications as a fresh context per call — the real vectors verify with the expected hashes
 * through the shared context, a mutated blob fails the same way, and decoding with a DecodeScratch
 * equals decoding without one.
 */
import { describe, expect, it } from 'vitest';
import { DecodeScratch, decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { HashContext } from '../../src/core/hash/hash-context.js';
import { bytesToHex, HexScratch } from '../../src/core/hash/hex.js';
import { type ContractIdVerification, verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

const blobs = loadContractIdVectors().blobVectors;
const env = spliceTypeEnv();

/** The verification without the decoded contract (compared separately: same decode either way). */
const summary = (r: ContractIdVerification): Omit<ContractIdVerification, 'contract'> => {
  const { contract: _c, ...rest } = r;
  return rest;
};

/** The blob with one byte of its create argument changed (the ID no longer recomputes, or it no longer decodes). */
function mutate(base64: string, at: number): Uint8Array {
  const b = Uint8Array.from(Buffer.from(base64, 'base64'));
  const i = Math.floor(b.length * at);
  b[i] = (b[i] as number) ^ 0x01;
  return b;
}

describe('a shared HashContext', () => {
  it('gives every real vector, in any order, the same verification as a fresh context per call', () => {
    const shared = new HashContext();
    const inputs = [
      ...blobs.map((b) => ({
        contractId: b.contractId,
        blob: b.createdEventBlobBase64 as string | Uint8Array,
      })),
      ...blobs.flatMap((b) =>
        [0.5, 0.8, 0.95].map((at) => ({
          contractId: b.contractId,
          blob: mutate(b.createdEventBlobBase64, at),
        })),
      ),
    ];
    // three rounds, the second reversed: cached encodings of one blob must never leak into another
    const order = [...inputs, ...[...inputs].reverse(), ...inputs];
    for (const x of order) {
      const fresh = verifyContractId({ ...x, types: env, sha256: sha256Node });
      const reused = verifyContractId({ ...x, types: env, sha256: sha256Node, context: shared });
      expect(summary(reused)).toEqual(summary(fresh));
      expect(reused.contract).toEqual(fresh.contract);
    }
    for (const b of blobs) {
      const r = verifyContractId({
        contractId: b.contractId,
        blob: b.createdEventBlobBase64,
        types: env,
        sha256: sha256Node,
        context: shared,
      });
      expect(r.status).toBe('verified');
      expect(r.contractHash).toBe(b.expected.contractHashHex);
      expect(r.expectedSuffix).toBe(b.expected.suffixHex);
    }
    // some mutation of every vector fails (so the comparison above covered failures too)
    expect(
      blobs.every((b) =>
        [0.5, 0.8, 0.95].some(
          (at) =>
            !verifyContractId({
              contractId: b.contractId,
              blob: mutate(b.createdEventBlobBase64, at),
              types: env,
            }).ok,
        ),
      ),
    ).toBe(true);
  });

  it('decodes with a DecodeScratch exactly as without one, and its pooled bytes never alias', () => {
    const scratch = new DecodeScratch();
    const decoded = blobs.map((b) => decodeCreatedEventBlob(b.createdEventBlobBase64, { scratch }));
    blobs.forEach((b, i) => {
      expect(decoded[i]).toEqual(decodeCreatedEventBlob(b.createdEventBlobBase64));
    });
    // the contract IDs (views into pooled memory) are still each blob's own after all the decodes
    blobs.forEach((b, i) => {
      expect(bytesToHex(decoded[i]?.contractId as Uint8Array)).toBe(b.contractId);
    });
  });

  it('hex with a scratch equals hex without one, for every length', () => {
    const scratch = new HexScratch();
    for (let n = 0; n < 300; n += 7) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(bytesToHex(b, scratch)).toBe(Buffer.from(b).toString('hex'));
      expect(bytesToHex(b)).toBe(Buffer.from(b).toString('hex'));
    }
  });
});
