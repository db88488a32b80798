/**
 * The audit mirror: a local SQLite record of snapshots, reserve contracts, observations and audit
 * runs. Every read and write is a function of this module; no raw connection leaves it.
 */
export * from './audit-runs.js';
export * from './contract-batches.js';
export * from './contract-verification.js';
export * from './history-state.js';
export * from './lookups.js';
export * from './maintenance.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
export { type MirrorReadStats, readMirrorReadStats } from './mirror-db.js';
export { guardError, guardStore, type Mirror, type OpenMirrorOptions, openMirror } from './open-mirror.js';
export * from './queries.js';
export * from './record-snapshot.js';
export * from './types.js';
