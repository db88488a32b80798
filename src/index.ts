/**
 * reserve-audit as a library for Node: the core (see ./core/index.ts) plus the Node edges —
 * node:crypto SHA-256, native base64, DAR and type-file loading, the HTTP snapshot fetcher, the SQLite mirror,
 * the audit runner and the reference server.
 */
export * from './core/index.js';
export { loadDarFile, loadTypeEnvFromFiles } from './io/files/dar-file.js';
export { readTypeFile, readTypeFiles } from './io/files/type-file.js';
export { fetchSnapshot } from './io/http/index.js';
export { decodeBase64Node, decodeBase64NodeScratch } from './io/node-base64.js';
export { sha256Node, sha256NodeBinary } from './io/node-sha256.js';
export * as store from './io/store/index.js';
export { type AuditReport, type RunAuditOptions, runAudit } from './run/audit.js';
export {
  computeContractVerifications,
  type SnapshotReport,
  type TakeSnapshotOptions,
  takeSnapshot,
  verifySnapshotContracts,
} from './run/snapshot.js';
export { createApp } from './server/app.js';
export { startServer } from './server/serve.js';
export * as simulator from './sim/index.js';
