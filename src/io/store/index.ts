/** The audit mirror: a local SQLite record of snapshots, reserve contracts, observations and audit runs. */
export * from './audit-runs.js';
export * from './contract-batches.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
export * from './open-mirror.js';
export * from './queries.js';
export * from './record-snapshot.js';
export * from './types.js';
export * from './verify-contracts.js';
