/**
 * The portable core (no node:*, no clock, no network, no db): blob codec, contract-ID hashing and
 * verification, the Daml type environment flat; the AMM math, the API response parsers and the
 * audit checks as namespaces. Importable in a browser.
 */
export * from '../errors/index.js';
export * as amm from './amm/index.js';
export * as audit from './audit/index.js';
export * from './codec/index.js';
export * from './hash/index.js';
export * as proof from './proof/index.js';
export * from './types/dar/index.js';
export * from './types/index.js';
export * as api from './wire/index.js';
