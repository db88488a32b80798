/**
 * Opening a PostgreSQL mirror as a MirrorStore (../mirror-store.ts; docs/mirror.md "PostgreSQL"):
 * a node-postgres pool on the URL, the PostgreSQL-dialect migrations applied (read-write) or the
 * schema version checked (read-only: the database must exist and be migrated; the session is
 * read-only on the server), and the store's methods over ./*.ts. The URL's password never
 * appears in a message or in `path`.
 */
import { redactUrl } from '../../http/redact-url.js';
import type { MirrorStore } from '../mirror-store.js';
import { type OpenMirrorOptions, toOpenFailedError } from '../open-mirror.js';
import { assertSchemaOpenable, computeSchemaVersion } from '../schema/versions.js';
import { readPgHistoryPast } from './apply-history.js';
import { recordPgSnapshot } from './apply-snapshot.js';
import { readPgAuditRuns, recordPgAuditRun } from './audit-runs.js';
import { createPgPool, guardPg, type PgMirror, withPgTransaction } from './connection.js';
import {
  iteratePgContractBatches,
  iteratePgContractKeyRanges,
  iteratePgObservationKeyPages,
  iteratePgObservations,
  readPgContractBatch,
  readPgContractsByKey,
} from './contract-reads.js';
import {
  readPgLedgerEvents,
  readPgLedgerFollowState,
  readPgLedgerFollowStreams,
  recordPgLedgerEvents,
} from './ledger-events.js';
import { prunePgRawResponses, readPgMirrorStats, vacuumPgMirror } from './maintenance.js';
import { applyPgMigrations, readPgAppliedVersions } from './migrate.js';
import {
  countPgContracts,
  countPgSnapshots,
  readPgContractPools,
  readPgLatestObservations,
  readPgObservationsForHistoryChecks,
  readPgPoolHistory,
  readPgResponseBody,
  readPgSnapshots,
  readPgVerificationStatuses,
} from './queries.js';
import { createPgReplayQueue } from './replay-queue.js';

export interface OpenPgStoreOptions extends OpenMirrorOptions {
  /** connections in the pool (default 4) */
  readonly poolSize?: number;
}

/** Opens (migrating unless read-only) the PostgreSQL mirror at `url`; throws StoreError. */
export async function openPgStore(url: string, options: OpenPgStoreOptions = {}): Promise<MirrorStore> {
  const readonly = options.readonly === true;
  const path = redactUrl(url);
  const pool = createPgPool(url, {
    readonly,
    ...(options.poolSize === undefined ? {} : { max: options.poolSize }),
  });
  const h: PgMirror = { path, readonly, pool, reads: { statements: 0, rows: 0 } };
  let schemaVersion: number;
  try {
    const c = await pool.connect();
    try {
      const applied = await readPgAppliedVersions(c);
      assertSchemaOpenable(path, 'postgres', applied, readonly);
      schemaVersion = readonly
        ? computeSchemaVersion(applied)
        : await applyPgMigrations(c, options.now ?? Date.now);
    } finally {
      c.release();
    }
  } catch (e) {
    await pool.end().catch(() => {});
    throw toOpenFailedError(path, e, (msg) => `expected a PostgreSQL mirror that can be opened, got ${msg}`);
  }
  const q = pool;
  let closed = false;
  return {
    backend: 'postgres',
    path,
    readonly,
    schemaVersion,
    distributed: readonly ? null : createPgReplayQueue(h),
    recordSnapshot: (s, v, o) => recordPgSnapshot(h, s, v, o),
    recordAuditRun: (r) => recordPgAuditRun(h, r),
    readAuditRuns: (o) => readPgAuditRuns(h, o),
    readVerificationStatuses: (ids) =>
      guardPg(h, 'readVerificationStatuses', () => readPgVerificationStatuses(q, ids)),
    readContractPools: (ids) => guardPg(h, 'readContractPools', () => readPgContractPools(h, q, ids)),
    readHistoryPast: (c, hz) =>
      guardPg(h, 'readHistoryPast', () =>
        // one consistent view of the folds and the pool contracts
        withPgTransaction(h, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (cl) =>
          readPgHistoryPast(h, cl, c, hz),
        ),
      ),
    readObservationsForHistoryChecks: (qu) =>
      guardPg(h, 'readObservationsForHistoryChecks', () => readPgObservationsForHistoryChecks(h, q, qu)),
    readLatestObservations: () => guardPg(h, 'readLatestObservations', () => readPgLatestObservations(h, q)),
    readPoolHistory: (p, o) => guardPg(h, 'readPoolHistory', () => readPgPoolHistory(q, p, o)),
    readSnapshots: (o) => guardPg(h, 'readSnapshots', () => readPgSnapshots(q, o)),
    readResponseBody: (sha) => guardPg(h, 'readResponseBody', () => readPgResponseBody(q, sha)),
    countSnapshots: () => guardPg(h, 'countSnapshots', () => countPgSnapshots(q)),
    countContracts: (o) => guardPg(h, 'countContracts', () => countPgContracts(q, o)),
    iterateContractBatches: (r, n) => iteratePgContractBatches(h, r, n),
    iterateContractKeyRanges: (r, n) => iteratePgContractKeyRanges(h, r, n),
    readContractBatch: (k) => readPgContractBatch(h, k),
    iterateObservations: (r) => iteratePgObservations(h, r),
    iterateObservationKeyPages: (r) => iteratePgObservationKeyPages(h, r),
    readContractsByKey: (keys) => readPgContractsByKey(h, keys),
    recordLedgerEvents: (b) => recordPgLedgerEvents(h, b),
    readLedgerFollowState: (k) => guardPg(h, 'readLedgerFollowState', () => readPgLedgerFollowState(h, k)),
    readLedgerFollowStreams: () => guardPg(h, 'readLedgerFollowStreams', () => readPgLedgerFollowStreams(h)),
    readLedgerEvents: (k, p, a) => guardPg(h, 'readLedgerEvents', () => readPgLedgerEvents(h, k, p, a)),
    readMirrorStats: () => readPgMirrorStats(h, schemaVersion),
    pruneRawResponses: (before) => prunePgRawResponses(h, before),
    vacuumMirror: () => vacuumPgMirror(h),
    readMirrorReadStats: () => ({ ...h.reads }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
