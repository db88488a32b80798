/**
 * Canton contract-ID versions and their hashing methods (docs/protocol/contract-id.md §3, §7).
 */

export type ContractIdVersion = 'v10' | 'v11' | 'v12';

/** The LF value-hash methods; the number is the header's version byte. */
export type HashingMethod = 'legacy' | 'upgradeFriendly' | 'typedNormalForm';

export const HASHING_METHOD_OF: Readonly<Record<ContractIdVersion, HashingMethod>> = {
  v10: 'legacy',
  v11: 'upgradeFriendly',
  v12: 'typedNormalForm',
};

/** Header version byte of each method (Legacy 0x00, UpgradeFriendly 0x01, TypedNormalForm 0x03). */
export const HASH_VERSION_BYTE: Readonly<Record<HashingMethod, number>> = {
  legacy: 0x00,
  upgradeFriendly: 0x01,
  typedNormalForm: 0x03,
};

/** Suffix prefix byte pair of each version: ca10, ca11, ca12. */
export const VERSION_PREFIX: Readonly<Record<ContractIdVersion, readonly [number, number]>> = {
  v10: [0xca, 0x10],
  v11: [0xca, 0x11],
  v12: [0xca, 0x12],
};

/** LF hash purpose bytes used here (docs/protocol/contract-id.md §7). */
export const LF_PURPOSE = { testing: 0x01, contractInstance: 0x05 } as const;

/** Canton HashPurpose.Unicum (4-byte big-endian prefix of the unicum preimage). */
export const UNICUM_PURPOSE = 29;
