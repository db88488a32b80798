/**
 * Barrel of the hashing module: value encodings (Legacy V10, UpgradeFriendly V11,
 * TypedNormalForm V12), contract hash, unicum, contract IDs, verification and minting
 * (docs/protocol/contract-id.md §1–§9).
 */

export * from './compute-contract-id.js';
export * from './contract-hash.js';
export * from './contract-id.js';
export * from './contract-id-version.js';
export * from './hash-builder.js';
export * from './hash-context.js';
export * from './hex.js';
export * from './sha256.js';
export { TemplateOfBytesMemo } from './template-of-bytes.js';
export * from './typed-normal-form-hash.js';
export * from './typed-value-hash.js';
export * from './unicum.js';
export * from './untyped-value-hash.js';
export * from './verify-contract-id.js';
