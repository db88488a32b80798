/**
 * Unicum (docs/protocol/contract-id.md §5) for every real blob vector from its decoded fields and expected
 * contract hash, the exact preimages where the vectors give them, and the V12 contract hash from
 * the typed trees (§6.4, §10.3).
 */
import { describe, expect, it } from 'vitest';
import {
  computeContractHashPreimage,
  computeTypedContractInstanceHash,
} from '../../src/core/hash/contract-hash.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { computeUnicum, computeUnicumPreimage, sortParties } from '../../src/core/hash/unicum.js';
import { parseQualifiedName } from '../../src/core/types/type-env.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { toTypedValue } from './vector-value.js';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const blobs = loadContractIdVectors().blobVectors;

describe('unicum from the decoded fields of every blob vector', () => {
  it.each(blobs.map((b) => [b.name, b] as const))('%s', (_n, b) => {
    const input = {
      salt: hex(b.decoded.saltHex),
      createdAt: BigInt(b.decoded.createdAtMicros),
      signatories: b.decoded.signatories,
      stakeholders: [...b.decoded.signatories, ...b.decoded.nonSignatoryStakeholders],
      key: null,
      contractHash: hex(b.expected.contractHashHex),
    };
    expect(bytesToHex(computeUnicum(input))).toBe(b.expected.unicumHex);
    if (b.expected.unicumPreimageHex !== undefined) {
      expect(bytesToHex(computeUnicumPreimage(input))).toBe(b.expected.unicumPreimageHex);
    }
  });
});

describe('V12 contract hash from the typed trees', () => {
  const typed = blobs.filter((b) => b.typedCreateArgForV12 !== undefined);
  it('covers the three V12 vectors', () => expect(typed.length).toBe(3));
  it.each(typed.map((b) => [b.name, b] as const))('%s', (_n, b) => {
    const tid = b.decoded.templateId;
    const q = parseQualifiedName(tid.slice(tid.indexOf(':') + 1));
    if (q === undefined || b.typedCreateArgForV12 === undefined) throw new Error('bad vector');
    const value = toTypedValue(b.typedCreateArgForV12);
    expect(bytesToHex(computeTypedContractInstanceHash(b.decoded.packageName, q, value))).toBe(
      b.expected.contractHashHex,
    );
    if (b.expected.contractHashPreimageHex !== undefined) {
      const pre = computeContractHashPreimage('v12', {
        packageName: b.decoded.packageName,
        templateId: { packageId: tid.slice(0, 64), ...q },
        createArg: { kind: 'unit' },
        typedCreateArg: value,
      });
      expect(bytesToHex(pre)).toBe(b.expected.contractHashPreimageHex);
    }
  });
});

describe('unicum edge cases', () => {
  const base = {
    salt: new Uint8Array(32).fill(7),
    signatories: ['b::1', 'a::1'],
    stakeholders: ['c::1', 'a::1', 'b::1', 'c::1'],
    key: null,
    contractHash: new Uint8Array(32).fill(1),
  };
  it('uses floor semantics for negative micros (epochSecond -1, nano 999999000)', () => {
    const pre = computeUnicumPreimage({ ...base, createdAt: -1n });
    expect(bytesToHex(pre.subarray(36, 48))).toBe('ffffffffffffffff3b9ac618');
  });
  it('sorts and de-duplicates parties, removes signatories from stakeholders', () => {
    expect(sortParties(['b', 'a', 'b', 'B'])).toEqual(['B', 'a', 'b']);
    const a = computeUnicum({ ...base, createdAt: 5n });
    const b = computeUnicum({
      ...base,
      createdAt: 5n,
      signatories: ['a::1', 'b::1'],
      stakeholders: ['c::1'],
    });
    expect(bytesToHex(a)).toBe(bytesToHex(b));
  });
  it('writes a key hash and maintainers when there is a key', () => {
    const pre = computeUnicumPreimage({
      ...base,
      createdAt: 0n,
      key: { hash: new Uint8Array(32).fill(9), maintainers: ['a::1'] },
    });
    const tail = bytesToHex(pre.subarray(pre.length - 32 - 17 - 33));
    // 01 ‖ keyHash ‖ lp(01 ‖ seq(["a::1"])) ‖ contractHash
    expect(tail).toBe(`01${'09'.repeat(32)}0000000d010000000100000004613a3a31${'01'.repeat(32)}`);
  });
  it('rejects a salt that is not 32 bytes', () => {
    expect(() => computeUnicum({ ...base, createdAt: 0n, salt: new Uint8Array(31) })).toThrow(/SALT_INVALID/);
  });
  it('rejects a key without its hash', () => {
    expect(() => computeUnicum({ ...base, createdAt: 0n, key: { hash: null, maintainers: [] } })).toThrow(
      /CONTRACT_KEY_HASH_MISSING/,
    );
  });
});
