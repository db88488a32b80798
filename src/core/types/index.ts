/**
 * Barrel of the Daml type environment: vocabulary, environment, type files, typing
 * (docs/protocol/contract-id.md §6.4).
 */
export * from './daml-type.js';
export * from './type-env.js';
export * from './type-file.js';
export * from './type-value.js';
export * from './typed-value.js';
