/**
 * The SQLite backend of the MirrorStore interface (./mirror-store.ts): the synchronous functions
 * of this folder (better-sqlite3, one connection) behind async methods, semantics unchanged —
 * each call runs to completion before it returns, so a snapshot is still one immediate
 * transaction. The iterators are async wrappers of the synchronous ones (one read statement).
 */

import { archiveMirror } from './archive.js';
import { readAuditRuns, recordAuditRun } from './audit-runs.js';
import { iterateContractBatches, iterateContractKeyRanges, readContractBatch } from './contract-batches.js';
import {
  readLedgerEvents,
  readLedgerFollowState,
  readLedgerFollowStreams,
  recordLedgerEvents,
} from './ledger-events.js';
import {
  iterateObservationKeyPages,
  iterateObservations,
  readContractPools,
  readContractsByKey,
  readVerificationStatuses,
} from './lookups.js';
import { pruneRawResponses, readMirrorStats, vacuumMirror } from './maintenance.js';
import { readMirrorReadStats } from './mirror-db.js';
import type { ArchivingMirrorStore } from './mirror-store.js';
import { type Mirror, type OpenMirrorOptions, openMirror } from './open-mirror.js';
import {
  countContracts,
  countSnapshots,
  readLatestObservations,
  readObservationsForHistoryChecks,
  readPoolHistory,
  readResponseBody,
  readSnapshots,
} from './queries.js';
import { readHistoryPast } from './sqlite/apply-history.js';
import { recordSnapshot } from './sqlite/apply-snapshot.js';

async function* toAsync<T>(it: Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* it;
}

/** The store of an open SQLite mirror handle (closing the store closes the handle). */
export function wrapSqliteMirror(m: Mirror): ArchivingMirrorStore {
  return {
    backend: 'sqlite',
    path: m.path,
    readonly: m.readonly,
    schemaVersion: m.schemaVersion,
    distributed: null,
    recordSnapshot: async (s, v, o) => recordSnapshot(m, s, v, o),
    recordAuditRun: async (r) => recordAuditRun(m, r),
    readAuditRuns: async (o) => readAuditRuns(m, o),
    readVerificationStatuses: async (ids) => readVerificationStatuses(m, ids),
    readContractPools: async (ids) => readContractPools(m, ids),
    readHistoryPast: async (c, h) => readHistoryPast(m, c, h),
    readObservationsForHistoryChecks: async (q) => readObservationsForHistoryChecks(m, q),
    readLatestObservations: async () => readLatestObservations(m),
    readPoolHistory: async (p, o) => readPoolHistory(m, p, o),
    readSnapshots: async (o) => readSnapshots(m, o),
    readResponseBody: async (sha) => readResponseBody(m, sha),
    countSnapshots: async () => countSnapshots(m),
    countContracts: async (o) => countContracts(m, o),
    iterateContractBatches: (r, n) => toAsync(iterateContractBatches(m, r, n)),
    iterateContractKeyRanges: (r, n) => toAsync(iterateContractKeyRanges(m, r, n)),
    readContractBatch: async (k) => readContractBatch(m, k),
    iterateObservations: (r) => toAsync(iterateObservations(m, r)),
    iterateObservationKeyPages: (r) => toAsync(iterateObservationKeyPages(m, r)),
    readContractsByKey: async (keys) => readContractsByKey(m, keys),
    recordLedgerEvents: async (b) => recordLedgerEvents(m, b),
    readLedgerFollowState: async (k) => readLedgerFollowState(m, k),
    readLedgerFollowStreams: async () => readLedgerFollowStreams(m),
    readLedgerEvents: async (k, p, a) => readLedgerEvents(m, k, p, a),
    readMirrorStats: async () => readMirrorStats(m),
    pruneRawResponses: async (before) => pruneRawResponses(m, before),
    archiveMirror: async (before) => archiveMirror(m, before),
    vacuumMirror: async () => vacuumMirror(m),
    readMirrorReadStats: () => readMirrorReadStats(m),
    close: async () => m.close(),
  };
}

/** Opens (creating and migrating if needed) the SQLite mirror at `path` as a store. */
export function openSqliteStore(path: string, options: OpenMirrorOptions = {}): ArchivingMirrorStore {
  return wrapSqliteMirror(openMirror(path, options));
}
