/**
 * The audit mirror: a record of snapshots, reserve contracts, observations and audit runs, in a
 * local SQLite file or a shared PostgreSQL database. Pipelines use the one MirrorStore interface
 * (`openMirrorStore`); the synchronous SQLite functions stay exported for the library and tests.
 * No raw connection leaves this module.
 */
export { type ArchiveResult, archiveMirror } from './archive.js';
export * from './audit-runs.js';
export * from './contract-batches.js';
export * from './contract-verification.js';
export * from './history-state.js';
export * from './lookups.js';
export * from './maintenance.js';
export { LATEST_SCHEMA_VERSION } from './migrations/index.js';
export { type MirrorReadStats, readMirrorReadStats } from './mirror-db.js';
export type { ContractVerifications, MirrorBackend, MirrorStore } from './mirror-store.js';
export { guardError, guardStore, type Mirror, type OpenMirrorOptions, openMirror } from './open-mirror.js';
export { isPostgresTarget, MIRROR_ENV, openMirrorStore, resolveMirrorTarget } from './open-store.js';
export { PG_LATEST_SCHEMA_VERSION } from './pg/migrations.js';
export type { OpenPgStoreOptions } from './pg/open-pg-store.js';
export * from './queries.js';
export * from './record-snapshot.js';
export * from './replay-runs.js';
export { openSqliteStore, wrapSqliteMirror } from './sqlite-store.js';
export * from './types.js';
