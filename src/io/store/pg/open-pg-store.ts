/**
 * Opening a PostgreSQL mirror as a MirrorStore (../mirror-store.ts; docs/mirror.md "PostgreSQL"):
 * a node-postgres pool on the URL, the PostgreSQL-dialect migrations applied (read-write) or the
 * schema version checked (read-only: the database must exist and be migrated; the session is
 * read-only on the server), and the store's methods over ./*.ts. The URL's password never
 * appears in a message or in `path`.
 */
import { StoreError } from '../../../errors/store.js';
import { redactUrl } from '../../http/redact-url.js';
import type { MirrorStore } from '../mirror-store.js';
import type { OpenMirrorOptions } from '../open-mirror.js';
import { loadPgAuditRuns, recordPgAuditRun } from './audit-runs.js';
import { createPgPool, guardPg, type PgMirror, withPgTransaction } from './connection.js';
import {
  iteratePgContractBatches,
  iteratePgContractKeyRanges,
  iteratePgObservationKeyPages,
  iteratePgObservations,
  loadPgContractBatch,
  loadPgContractsByKey,
} from './contract-reads.js';
import { loadPgHistoryPast } from './history-state.js';
import { computePgMirrorStats, prunePgRawResponses, vacuumPgMirror } from './maintenance.js';
import { applyPgMigrations, PG_LATEST_SCHEMA_VERSION, readPgAppliedVersion } from './migrations.js';
import {
  countPgContracts,
  countPgSnapshots,
  loadPgContractPools,
  loadPgLatestObservations,
  loadPgObservationsForHistoryChecks,
  loadPgPoolHistory,
  loadPgResponseBody,
  loadPgSnapshots,
  loadPgVerificationStatuses,
} from './queries.js';
import { recordPgSnapshot } from './record-snapshot.js';
import { createPgReplayQueue } from './replay-queue.js';

/** True for a postgres:// or postgresql:// target. */
export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target.trim());
}

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
      const found = await readPgAppliedVersion(c);
      if (found > PG_LATEST_SCHEMA_VERSION)
        throw new StoreError(
          'STORE_SCHEMA_UNSUPPORTED',
          `"${path}" expected a mirror schema version ≤ ${PG_LATEST_SCHEMA_VERSION}, got ${found} (written by a newer reserve-audit)`,
        );
      if (readonly && found < PG_LATEST_SCHEMA_VERSION)
        throw new StoreError(
          'STORE_SCHEMA_UNSUPPORTED',
          `"${path}" expected mirror schema version ${PG_LATEST_SCHEMA_VERSION}, got ${found} (open it once read-write to migrate)`,
        );
      schemaVersion = readonly ? found : await applyPgMigrations(c, options.now ?? Date.now);
    } finally {
      c.release();
    }
  } catch (e) {
    await pool.end().catch(() => {});
    if (e instanceof StoreError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `"${path}" expected a PostgreSQL mirror that can be opened, got ${msg}`,
      {
        cause: e,
        details: { path },
      },
    );
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
    loadAuditRuns: (o) => loadPgAuditRuns(h, o),
    loadVerificationStatuses: (ids) =>
      guardPg(h, 'loadVerificationStatuses', () => loadPgVerificationStatuses(q, ids)),
    loadContractPools: (ids) => guardPg(h, 'loadContractPools', () => loadPgContractPools(h, q, ids)),
    loadHistoryPast: (c, hz) =>
      guardPg(h, 'loadHistoryPast', () =>
        // one consistent view of the folds and the pool contracts
        withPgTransaction(h, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (cl) =>
          loadPgHistoryPast(h, cl, c, hz),
        ),
      ),
    loadObservationsForHistoryChecks: (qu) =>
      guardPg(h, 'loadObservationsForHistoryChecks', () => loadPgObservationsForHistoryChecks(h, q, qu)),
    loadLatestObservations: () => guardPg(h, 'loadLatestObservations', () => loadPgLatestObservations(h, q)),
    loadPoolHistory: (p, o) => guardPg(h, 'loadPoolHistory', () => loadPgPoolHistory(q, p, o)),
    loadSnapshots: (o) => guardPg(h, 'loadSnapshots', () => loadPgSnapshots(q, o)),
    loadResponseBody: (sha) => guardPg(h, 'loadResponseBody', () => loadPgResponseBody(q, sha)),
    countSnapshots: () => guardPg(h, 'countSnapshots', () => countPgSnapshots(q)),
    countContracts: (o) => guardPg(h, 'countContracts', () => countPgContracts(q, o)),
    iterateContractBatches: (r, n) => iteratePgContractBatches(h, r, n),
    iterateContractKeyRanges: (r, n) => iteratePgContractKeyRanges(h, r, n),
    loadContractBatch: (k) => loadPgContractBatch(h, k),
    iterateObservations: (r) => iteratePgObservations(h, r),
    iterateObservationKeyPages: (r) => iteratePgObservationKeyPages(h, r),
    loadContractsByKey: (keys) => loadPgContractsByKey(h, keys),
    computeMirrorStats: () => computePgMirrorStats(h, schemaVersion),
    pruneRawResponses: (before) => prunePgRawResponses(h, before),
    archiveMirror: async () => {
      throw new StoreError(
        'STORE_WRITE_FAILED',
        'archiving expected an SQLite mirror, got PostgreSQL (it keeps every row; docs/mirror.md "Archive")',
      );
    },
    vacuumMirror: () => vacuumPgMirror(h),
    readMirrorReadStats: () => ({ ...h.reads }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
