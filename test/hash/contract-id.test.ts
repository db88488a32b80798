/** parseContractId and suffix construction (docs/protocol/contract-id.md §2, §3, §13). */
import { describe, expect, it } from 'vitest';
import { computeContractIdSuffix, parseContractId } from '../../src/core/hash/contract-id.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { HashError } from '../../src/errors/hash.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const blobs = loadContractIdVectors().blobVectors;
const v12 = blobs.find((b) => b.name.includes('FeaturedAppRight')) as (typeof blobs)[number];

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(HashError);
    return (e as HashError).code;
  }
  throw new Error('did not throw');
}

describe('parseContractId', () => {
  it.each(blobs.map((b) => [b.name, b] as const))('parses the real ID of %s', (_n, b) => {
    const id = parseContractId(b.contractId);
    expect(id.hex).toBe(b.contractId);
    expect(id.bytes.length).toBe(69);
    expect(bytesToHex(id.suffix)).toBe(b.expected.suffixHex);
    expect(bytesToHex(id.unicum)).toBe(b.expected.unicumHex);
    const want = {
      AuthenticatedContractIdVersionV10: 'v10',
      AuthenticatedContractIdVersionV11: 'v11',
      AuthenticatedContractIdVersionV12: 'v12',
    }[b.cantonContractIdVersion];
    expect(id.version).toBe(want);
    expect(bytesToHex(computeContractIdSuffix(id.version, id.unicum))).toBe(b.expected.suffixHex);
  });

  const good = v12.contractId;
  const bad: [string, string, string][] = [
    ['upper case', good.toUpperCase(), 'CONTRACT_ID_MALFORMED'],
    ['one upper-case letter', `${good.slice(0, 10)}A${good.slice(11)}`, 'CONTRACT_ID_MALFORMED'],
    ['non-hex', `${good.slice(0, 137)}g`, 'CONTRACT_ID_MALFORMED'],
    ['too short', good.slice(0, 136), 'CONTRACT_ID_MALFORMED'],
    ['too long', `${good}00`, 'CONTRACT_ID_MALFORMED'],
    ['odd length', good.slice(0, 137), 'CONTRACT_ID_MALFORMED'],
    ['empty', '', 'CONTRACT_ID_MALFORMED'],
    ['local id without suffix', good.slice(0, 66), 'CONTRACT_ID_MALFORMED'],
    ['wrong V1 prefix', `02${good.slice(2)}`, 'CONTRACT_ID_MALFORMED'],
    ['V2 contract id', `01${good.slice(2)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['Canton 2.x ca00', `${good.slice(0, 66)}ca00${good.slice(70)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['Canton 2.x ca01', `${good.slice(0, 66)}ca01${good.slice(70)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['Canton 2.x ca02', `${good.slice(0, 66)}ca02${good.slice(70)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['Canton 2.x ca03', `${good.slice(0, 66)}ca03${good.slice(70)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['future ca13', `${good.slice(0, 66)}ca13${good.slice(70)}`, 'UNSUPPORTED_CONTRACT_ID_VERSION'],
    ['not a sha256 multihash', `${good.slice(0, 70)}1320${good.slice(74)}`, 'CONTRACT_ID_MALFORMED'],
  ];
  it.each(bad)('rejects %s', (_n, hex, code) => expect(codeOf(() => parseContractId(hex))).toBe(code));
  it('rejects a non-string', () =>
    expect(codeOf(() => parseContractId(42 as unknown as string))).toBe('CONTRACT_ID_MALFORMED'));
  it('says why upper case is rejected', () => {
    expect(() => parseContractId(good.toUpperCase())).toThrow(/lower-case/);
  });
});
