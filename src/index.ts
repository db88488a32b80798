/**
 * reserve-audit as a library for Node: the whole core (./core/index.ts lists its names) plus the Node
 * edges, listed here — node:crypto SHA-256, native base64, DAR and type-file loading, the HTTP snapshot
 * fetcher, the SQLite mirror, the audit runner and the reference server.
 */

export * from './core/index.js';
export {
  type LoadDarFileOptions,
  type LoadedTypeEnv,
  loadDarFile,
  loadTypeEnvFromFiles,
  type TypeEnvSources,
} from './io/files/dar-file.js';
export type { TypeSources } from './io/files/default-types.js';
export type { ReserveProfileSource } from './io/files/profile-file.js';
export { readTypeFile, readTypeFiles } from './io/files/type-file.js';
export {
  type AttemptRecord,
  type BaseUrl,
  createHttpClient,
  type FetchSnapshotOptions,
  fetchSnapshot,
  type HttpClient,
  type HttpClientOptions,
  parseBaseUrl,
  type RequestCounts,
  type SendOptions,
  type SnapshotProgress,
} from './io/http/index.js';
export { decodeBase64Node, decodeBase64NodeScratch } from './io/node-base64.js';
export { sha256Node, sha256NodeBinary } from './io/node-sha256.js';
export * as store from './io/store/index.js';
export {
  type AuditReport,
  type AuditSummary,
  type RunAuditLedgerOptions,
  type RunAuditOptions,
  runAudit,
} from './run/audit.js';
export {
  type FailedSection,
  type SnapshotReport,
  type TakeSnapshotOptions,
  takeSnapshot,
  type VerifySnapshotContractsOptions,
  verifySnapshotContracts,
} from './run/snapshot.js';
export {
  type BatchVerdict,
  type VerifyContractBatchOptions,
  verifyContractBatch,
} from './run/verify-batch.js';
export {
  type App,
  type AppOptions,
  type ConnectionLimitOptions,
  createApp,
  type LedgerApiOptions,
  type LedgerAuthOptions,
  type Logger,
  type PublicSocketOptions,
  type RateLimitOptions,
} from './server/app.js';
export { type RunningServer, type ServeOptions, startServer } from './server/serve.js';
export * as simulator from './sim/index.js';
