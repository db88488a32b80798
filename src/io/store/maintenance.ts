/**
 * Mirror maintenance (docs/mirror.md "Size and retention"): `readMirrorStats` (bytes by table
 * through SQLite's dbstat, snapshots, pools, contracts, time span, snapshots still holding their
 * raw responses) and `pruneRawResponses` (the raw HTTP responses of snapshots older than a
 * retention window, and the bodies no snapshot references any more, in one immediate
 * transaction), then `vacuumMirror` (checkpoint the WAL and rebuild the file; refused, not
 * forced, while another connection uses the mirror). No pipeline reads raw responses back:
 * audit, replay, history and report read snapshots, contracts (with their blobs), observations
 * and the incremental history, which pruning never touches.
 */
import { StoreError } from '../../errors/store.js';
import { mirrorDb, writeMirror } from './mirror-db.js';
import { guardStore, type Mirror } from './open-mirror.js';

export interface MirrorTableSize {
  readonly name: string;
  /** bytes of the table and its indexes (pages × page size) */
  readonly bytes: number;
  readonly rows: number;
}

export interface MirrorStats {
  readonly path: string;
  readonly schemaVersion: number;
  /** bytes of the database file (pages × page size), free pages included */
  readonly fileBytes: number;
  readonly freeBytes: number;
  readonly tables: readonly MirrorTableSize[];
  readonly snapshots: number;
  /** snapshots whose raw responses are still kept */
  readonly snapshotsWithRaw: number;
  readonly pools: number;
  readonly contracts: number;
  readonly observations: number;
  readonly firstSnapshotMs: number | null;
  readonly lastSnapshotMs: number | null;
  /** fileBytes ÷ observations (a pool in a snapshot), null when there are none */
  readonly bytesPerObservation: number | null;
  /** snapshots kept as failed attempts, not history (schema 12, ./plan/failed-attempt.ts) */
  readonly failedAttempts: number;
}

/** The mirror's tables, as `mirror stats` reports them (both backends). */
export const MIRROR_TABLES = [
  'bodies',
  'responses',
  'snapshots',
  'contracts',
  'observations',
  'pool_contracts',
  'pool_history',
  'audit_runs',
  'findings',
  'blob_dictionaries',
  'templates',
  'failed_attempts',
  'ledger_events',
  'ledger_follow_state',
] as const;

/** The SQLite mirror's archive tables (schema 10; ./archive.ts), reported after MIRROR_TABLES. */
const ARCHIVE_TABLES = [
  'archive_contract_chunks',
  'archive_contract_ids',
  'archive_observation_chunks',
] as const;

/** Sizes and counts of a mirror. */
export function readMirrorStats(mirror: Mirror): MirrorStats {
  return guardStore(mirror, 'readMirrorStats', () => {
    const db = mirrorDb(mirror);
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const pageCount = Number(db.pragma('page_count', { simple: true }));
    const freePages = Number(db.pragma('freelist_count', { simple: true }));
    // bytes per table, its indexes included (dbstat: one row per page of every b-tree)
    const bytes = new Map<string, number>();
    const rows = db
      .prepare(
        `SELECT coalesce(m.tbl_name, s.name), sum(s.pgsize) FROM dbstat s
         LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY 1`,
      )
      .raw(true)
      .all() as [string, number][];
    for (const [name, b] of rows) bytes.set(name, Number(b));
    const count = (sql: string): number => Number(db.prepare(sql).pluck().get() ?? 0);
    const tables = [...MIRROR_TABLES, ...ARCHIVE_TABLES].map((name) => ({
      name,
      bytes: bytes.get(name) ?? 0,
      rows: count(`SELECT count(*) FROM ${name}`),
    }));
    const span = db
      .prepare('SELECT min(started_at_ms), max(started_at_ms), count(*) FROM snapshots')
      .raw(true)
      .get() as [number | null, number | null, number];
    // rows and archived rows (the archive's chunks know how many they hold)
    const observations =
      (tables.find((t) => t.name === 'observations')?.rows ?? 0) +
      count('SELECT coalesce(sum(observations), 0) FROM archive_observation_chunks');
    const fileBytes = pageSize * pageCount;
    return {
      path: mirror.path,
      schemaVersion: mirror.schemaVersion,
      fileBytes,
      freeBytes: pageSize * freePages,
      tables,
      snapshots: Number(span[2]),
      snapshotsWithRaw: count('SELECT count(DISTINCT snapshot_id) FROM responses'),
      pools: count('SELECT count(*) FROM pool_history'),
      contracts:
        (tables.find((t) => t.name === 'contracts')?.rows ?? 0) +
        count('SELECT coalesce(sum(contracts), 0) FROM archive_contract_chunks'),
      observations,
      firstSnapshotMs: span[0],
      lastSnapshotMs: span[1],
      bytesPerObservation: observations === 0 ? null : Math.round(fileBytes / observations),
      failedAttempts: tables.find((t) => t.name === 'failed_attempts')?.rows ?? 0,
    };
  });
}

export interface PruneResult {
  /** snapshots whose raw responses were removed */
  readonly snapshots: number;
  readonly responses: number;
  /** distinct bodies no longer referenced, removed */
  readonly bodies: number;
  readonly bodyBytes: number;
}

/** the transient index of responses by body that pruning builds and drops (both backends) */
export const PRUNE_INDEX = 'prune_responses_body';

/**
 * Removes the raw responses of the snapshots that started before `beforeMs`, and every body no
 * remaining response references, in one immediate transaction. Snapshots, contracts (blobs
 * included), observations, audit runs and the incremental history are kept.
 */
export function pruneRawResponses(mirror: Mirror, beforeMs: number): PruneResult {
  return writeMirror(
    mirror,
    (path) => `pruning "${path}" failed and was rolled back`,
    (db): PruneResult => {
      const snapshots = Number(
        db
          .prepare(
            `SELECT count(DISTINCT r.snapshot_id) FROM responses r JOIN snapshots s ON s.id = r.snapshot_id
           WHERE s.started_at_ms < ?`,
          )
          .pluck()
          .get(beforeMs),
      );
      const responses = db
        .prepare(
          'DELETE FROM responses WHERE snapshot_id IN (SELECT id FROM snapshots WHERE started_at_ms < ?)',
        )
        .run(beforeMs).changes;
      // the index of responses by body exists only here (schema 7): built once for the orphan
      // search and the foreign-key checks of the deletes, so recording never maintains it
      db.exec(`CREATE INDEX ${PRUNE_INDEX} ON responses (body_id)`);
      const orphan = 'NOT EXISTS (SELECT 1 FROM responses r WHERE r.body_id = b.id)';
      const bodyBytes = Number(
        db.prepare(`SELECT coalesce(sum(size), 0) FROM bodies b WHERE ${orphan}`).pluck().get(),
      );
      const bodies = db.prepare(`DELETE FROM bodies AS b WHERE ${orphan}`).run().changes;
      db.exec(`DROP INDEX ${PRUNE_INDEX}`);
      return { snapshots, responses, bodies, bodyBytes };
    },
  );
}

/**
 * Returns the free pages to the file system: checkpoints the WAL, then VACUUM (the whole file is
 * rewritten through a temporary copy; readers keep the old pages until it commits). Throws
 * StoreError STORE_WRITE_FAILED (nothing lost) when another connection holds the mirror.
 */
export function vacuumMirror(mirror: Mirror): { readonly beforeBytes: number; readonly afterBytes: number } {
  if (mirror.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${mirror.path}" was opened read-only`);
  const db = mirrorDb(mirror);
  const size = (): number =>
    Number(db.pragma('page_size', { simple: true })) * Number(db.pragma('page_count', { simple: true }));
  const beforeBytes = size();
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError('STORE_WRITE_FAILED', `vacuuming "${mirror.path}" failed (nothing lost): ${msg}`, {
      cause: e,
    });
  }
  return { beforeBytes, afterBytes: size() };
}
