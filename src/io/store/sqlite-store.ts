/**
 * The SQLite backend of the MirrorStore interface (./mirror-store.ts): the synchronous functions
 * of this folder (better-sqlite3, one connection) behind async methods, semantics unchanged —
 * each call runs to completion before it returns, so a snapshot is still one immediate
 * transaction. The iterators are async wrappers of the synchronous ones (one read statement).
 */

import { archiveMirror } from './archive.js';
import { loadAuditRuns, recordAuditRun } from './audit-runs.js';
import { iterateContractBatches, iterateContractKeyRanges, loadContractBatch } from './contract-batches.js';
import { loadHistoryPast } from './history-state.js';
import {
  iterateObservationKeyPages,
  iterateObservations,
  loadContractPools,
  loadContractsByKey,
  loadVerificationStatuses,
} from './lookups.js';
import { computeMirrorStats, pruneRawResponses, vacuumMirror } from './maintenance.js';
import { readMirrorReadStats } from './mirror-db.js';
import type { MirrorStore } from './mirror-store.js';
import { type Mirror, type OpenMirrorOptions, openMirror } from './open-mirror.js';
import {
  countContracts,
  countSnapshots,
  loadLatestObservations,
  loadObservationsForHistoryChecks,
  loadPoolHistory,
  loadResponseBody,
  loadSnapshots,
} from './queries.js';
import { recordSnapshot } from './record-snapshot.js';

async function* toAsync<T>(it: Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* it;
}

/** The store of an open SQLite mirror handle (closing the store closes the handle). */
export function wrapSqliteMirror(m: Mirror): MirrorStore {
  return {
    backend: 'sqlite',
    path: m.path,
    readonly: m.readonly,
    schemaVersion: m.schemaVersion,
    distributed: null,
    recordSnapshot: async (s, v, o) => recordSnapshot(m, s, v, o),
    recordAuditRun: async (r) => recordAuditRun(m, r),
    loadAuditRuns: async (o) => loadAuditRuns(m, o),
    loadVerificationStatuses: async (ids) => loadVerificationStatuses(m, ids),
    loadContractPools: async (ids) => loadContractPools(m, ids),
    loadHistoryPast: async (c, h) => loadHistoryPast(m, c, h),
    loadObservationsForHistoryChecks: async (q) => loadObservationsForHistoryChecks(m, q),
    loadLatestObservations: async () => loadLatestObservations(m),
    loadPoolHistory: async (p, o) => loadPoolHistory(m, p, o),
    loadSnapshots: async (o) => loadSnapshots(m, o),
    loadResponseBody: async (sha) => loadResponseBody(m, sha),
    countSnapshots: async () => countSnapshots(m),
    countContracts: async (o) => countContracts(m, o),
    iterateContractBatches: (r, n) => toAsync(iterateContractBatches(m, r, n)),
    iterateContractKeyRanges: (r, n) => toAsync(iterateContractKeyRanges(m, r, n)),
    loadContractBatch: async (k) => loadContractBatch(m, k),
    iterateObservations: (r) => toAsync(iterateObservations(m, r)),
    iterateObservationKeyPages: (r) => toAsync(iterateObservationKeyPages(m, r)),
    loadContractsByKey: async (keys) => loadContractsByKey(m, keys),
    computeMirrorStats: async () => computeMirrorStats(m),
    pruneRawResponses: async (before) => pruneRawResponses(m, before),
    archiveMirror: async (before) => archiveMirror(m, before),
    vacuumMirror: async () => vacuumMirror(m),
    readMirrorReadStats: () => readMirrorReadStats(m),
    close: async () => m.close(),
  };
}

/** Opens (creating and migrating if needed) the SQLite mirror at `path` as a store. */
export function openSqliteStore(path: string, options: OpenMirrorOptions = {}): MirrorStore {
  return wrapSqliteMirror(openMirror(path, options));
}
