/**
 * End to end on every real blob vector (docs/protocol/contract-id.md §10.3): decode → contract hash →
 * unicum → suffix, the exact preimages where given, V12 typing with the fixture type file; and the
 * verification reasons for mismatches, unsupported versions, missing types and bad input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { computeContractHashPreimage } from '../../src/core/hash/contract-hash.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { computeUnicumPreimage } from '../../src/core/hash/unicum.js';
import { verifyContractId, verifyDecodedContract } from '../../src/core/hash/verify-contract-id.js';
import { createTypeEnv } from '../../src/core/types/type-env.js';
import { typeCreateArgument } from '../../src/core/types/type-value.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';
import { toTypedValue } from './vector-value.js';

const blobs = loadContractIdVectors().blobVectors;
const env = spliceTypeEnv();
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const byName = (s: string) => blobs.find((b) => b.name.includes(s)) as (typeof blobs)[number];

describe.each(blobs.map((b) => [b.name, b] as const))('%s', (_n, b) => {
  it('verifies with the expected contract hash, unicum and suffix (noble and node:crypto)', () => {
    for (const sha256 of [undefined, sha256Node]) {
      const r = verifyContractId({
        contractId: b.contractId,
        blob: b.createdEventBlobBase64,
        types: env,
        sha256,
      });
      expect(r.reasons).toEqual([]);
      expect(r.status).toBe('verified');
      expect(r.ok).toBe(true);
      expect(r.contractHash).toBe(b.expected.contractHashHex);
      expect(r.unicum).toBe(b.expected.unicumHex);
      expect(r.expectedSuffix).toBe(b.expected.suffixHex);
      expect(r.actualSuffix).toBe(b.expected.suffixHex);
      expect(r.embeddedContractIdMatches).toBe(true);
      expect(r.typing === undefined).toBe(b.typedCreateArgForV12 === undefined);
    }
  });
  it('accepts raw bytes as well as base64', () => {
    const r = verifyContractId({
      contractId: b.contractId,
      blob: hex(Buffer.from(b.createdEventBlobBase64, 'base64').toString('hex')),
      types: env,
    });
    expect(r.ok).toBe(true);
  });
  it('reproduces the exact preimages where the vector gives them', () => {
    const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
    const version =
      b.contractId.slice(66, 70) === 'ca10' ? 'v10' : b.contractId.slice(66, 70) === 'ca11' ? 'v11' : 'v12';
    const typed = version === 'v12' ? typeCreateArgument(c, env).value : undefined;
    const pre = computeContractHashPreimage(version, { ...c, typedCreateArg: typed });
    if (b.expected.contractHashPreimageHex !== undefined)
      expect(bytesToHex(pre)).toBe(b.expected.contractHashPreimageHex);
    if (b.expected.unicumPreimageHex !== undefined) {
      const u = computeUnicumPreimage({
        salt: c.authenticationData.salt?.bytes ?? new Uint8Array(),
        createdAt: c.createdAt,
        signatories: c.signatories,
        stakeholders: c.stakeholders,
        key: c.key,
        contractHash: hex(b.expected.contractHashHex),
      });
      expect(bytesToHex(u)).toBe(b.expected.unicumPreimageHex);
    }
  });
  if (b.typedCreateArgForV12 !== undefined) {
    const tree = b.typedCreateArgForV12;
    it('types the decoded blob exactly into typedCreateArgForV12', () => {
      const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
      const t = typeCreateArgument(c, env);
      expect(t.value).toEqual(toTypedValue(tree));
      expect(t.upgraded).toBe(false);
    });
    it('could not check without types (TYPES_REQUIRED) or with types lacking the template (TYPE_NOT_FOUND)', () => {
      const r = verifyContractId({ contractId: b.contractId, blob: b.createdEventBlobBase64 });
      expect(r.status).toBe('could-not-check');
      expect(r.reasons.map((x) => x.code)).toEqual(['TYPES_REQUIRED']);
      expect(r.version).toBe('v12');
      const r2 = verifyContractId({
        contractId: b.contractId,
        blob: b.createdEventBlobBase64,
        types: createTypeEnv(),
      });
      expect(r2.status).toBe('could-not-check');
      expect(r2.reasons.map((x) => x.code)).toEqual(['TYPE_NOT_FOUND']);
    });
  }
});

describe('verification reasons', () => {
  const v10 = byName('Ping');
  const v12 = byName('FeaturedAppRight');
  it('MISMATCH when the published ID differs from the embedded one and from the recomputed suffix', () => {
    const other = byName('IouTransfer');
    const r = verifyContractId({ contractId: other.contractId, blob: v10.createdEventBlobBase64 });
    expect(r.status).toBe('mismatch');
    expect(r.ok).toBe(false);
    expect(r.embeddedContractIdMatches).toBe(false);
    expect(r.reasons.map((x) => x.code)).toEqual(['CONTRACT_ID_MISMATCH', 'SUFFIX_MISMATCH']);
    expect(r.expectedSuffix).toBe(v10.expected.suffixHex);
  });
  it('MISMATCH (CONTRACT_ID_MISMATCH only) when only the discriminator differs — it is not covered by the suffix', () => {
    const id = `00${'11'.repeat(32)}${v10.contractId.slice(66)}`;
    const r = verifyContractId({ contractId: id, blob: v10.createdEventBlobBase64 });
    expect(r.reasons.map((x) => x.code)).toEqual(['CONTRACT_ID_MISMATCH']);
    expect(r.status).toBe('mismatch');
  });
  it('MISMATCH when the ID version byte is changed (ca10 → ca11 hashes differently)', () => {
    const id = `${v10.contractId.slice(0, 66)}ca11${v10.contractId.slice(70)}`;
    const r = verifyContractId({ contractId: id, blob: v10.createdEventBlobBase64 });
    expect(r.version).toBe('v11');
    expect(r.reasons.map((x) => x.code)).toEqual(['CONTRACT_ID_MISMATCH', 'SUFFIX_MISMATCH']);
  });
  it('could not check an unsupported version (Canton 2.x ca01) or a V2 ID', () => {
    for (const id of [
      `${v12.contractId.slice(0, 66)}ca01${v12.contractId.slice(70)}`,
      `01${v12.contractId.slice(2)}`,
    ]) {
      const r = verifyContractId({ contractId: id, blob: v12.createdEventBlobBase64, types: env });
      expect(r.status).toBe('could-not-check');
      expect(r.reasons.map((x) => x.code)).toEqual(['UNSUPPORTED_CONTRACT_ID_VERSION']);
    }
  });
  it('could not check a malformed ID (upper case)', () => {
    const r = verifyContractId({
      contractId: v12.contractId.toUpperCase(),
      blob: v12.createdEventBlobBase64,
      types: env,
    });
    expect(r.status).toBe('could-not-check');
    expect(r.reasons.map((x) => x.code)).toEqual(['CONTRACT_ID_MALFORMED']);
    expect(r.embeddedContractIdMatches).toBe(null);
  });
  it('could not check a blob that does not decode (BLOB_* code from the decoder)', () => {
    const r = verifyContractId({ contractId: v12.contractId, blob: new Uint8Array([0x0a, 0x03, 0x32]) });
    expect(r.status).toBe('could-not-check');
    expect(r.reasons[0]?.code).toMatch(/^BLOB_/);
    expect(r.version).toBe('v12');
  });
  it('verifyDecodedContract avoids a second decode and gives the same result', () => {
    const c = decodeCreatedEventBlob(v12.createdEventBlobBase64);
    const r = verifyDecodedContract({ contractId: v12.contractId, contract: c, types: env });
    expect(r.ok).toBe(true);
    expect(r.contract).toBe(c);
  });
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string()), (id, blob) => {
        const r = verifyContractId({ contractId: id, blob, types: env });
        expect(r.ok).toBe(false);
        expect(r.reasons.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('upgrade substitution', () => {
  it('types a V12 blob with another (newer) version of the same package and says so', () => {
    const b = byName('AmuletRules (V12)');
    const NEW_ID = 'ee'.repeat(32);
    const renamed = [...env.packages.values()].map((p) =>
      p.name === 'splice-amulet' ? { ...p, packageId: NEW_ID, version: '0.1.99' } : p,
    );
    const r = verifyContractId({
      contractId: b.contractId,
      blob: b.createdEventBlobBase64,
      types: createTypeEnv(renamed),
    });
    expect(r.status).toBe('verified');
    expect(r.typing?.upgraded).toBe(true);
    expect(r.typing?.packageVersion).toBe('0.1.99');
    expect(r.typing?.note).toMatch(/typed with another version of the package: splice-amulet 0\.1\.99/);
  });
});
