/** Re-exports the error hierarchy: the base class and one subclass per domain. */

export * from './amm.js';
export * from './api.js';
export * from './audit.js';
export * from './base.js';
export * from './codec.js';
export * from './dar.js';
export * from './hash.js';
export * from './http.js';
export * from './install.js';
export * from './ledger-read.js';
export * from './replay.js';
export * from './server.js';
export * from './store.js';
export * from './types.js';
export * from './usage.js';
