/**
 * Replays the Canton/Daml value-hash stability vectors (docs/protocol/contract-id.md §10.1, §10.2):
 * 65 cases × {Legacy, UpgradeFriendly, UpgradeFriendly wrapped in a one-field record} and the 66
 * TypedNormalForm cases.
 */
import { describe, expect, it } from 'vitest';
import { computeTypedContractInstanceHash, computeValueHash } from '../../src/core/hash/contract-hash.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { parseQualifiedName } from '../../src/core/types/type-env.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { toTypedValue, toValue } from './vector-value.js';

const vectors = loadContractIdVectors().valueHashVectors;

describe('Legacy / UpgradeFriendly value hash (HashSpec.scala)', () => {
  const cases = vectors.legacyAndUpgradeFriendly.cases;
  it('has the 65 cases', () => expect(cases.length).toBe(65));
  describe.each(cases.map((c, i) => ({ ...c, n: `${i}: ${c.label}` })))('$n', (c) => {
    const value = toValue(c.value);
    it('legacy', () => expect(bytesToHex(computeValueHash('legacy', value))).toBe(c.legacy));
    it('upgradeFriendly', () =>
      expect(bytesToHex(computeValueHash('upgradeFriendly', value))).toBe(c.upgradeFriendly));
    it('upgradeFriendly wrapped in a one-field record', () =>
      expect(bytesToHex(computeValueHash('upgradeFriendly', { kind: 'record', fields: [value] }))).toBe(
        c.upgradeFriendlyWrappedInOneFieldRecord,
      ));
  });
});

describe('TypedNormalForm value hash (expected-stability-values-contract-hashes.txt)', () => {
  const cases = vectors.typedNormalForm.cases;
  it('has the 66 cases', () => expect(cases.length).toBe(66));
  it.each(cases.map((c, i) => ({ ...c, n: `${i}: ${c.label}` })))('$n', (c) => {
    const template = parseQualifiedName(c.templateName ?? 'module:name');
    if (template === undefined) throw new Error('bad template');
    const h = computeTypedContractInstanceHash('package-name-0', template, toTypedValue(c.value));
    expect(bytesToHex(h)).toBe(c.expected);
  });
});
