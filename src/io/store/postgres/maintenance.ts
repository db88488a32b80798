/**
 * Maintenance of a PostgreSQL mirror — ../maintenance.ts for SQLite: statistics (bytes per table
 * with its indexes and TOAST from `pg_total_relation_size`, the database's size, rows, snapshots,
 * time span), pruning raw responses older than a window (one transaction, under the mirror's write
 * lock) and VACUUM (ANALYZE) of the tables pruning touches. PostgreSQL reuses freed space
 * itself, so "free bytes" is not reported (0).
 */
import { StoreError } from '../../../errors/store.js';
import { MIRROR_TABLES, type MirrorStats, PRUNE_INDEX, type PruneResult } from '../maintenance.js';
import { type PgMirror, queryRows, queryValue, toStoreError, writePgMirror } from './connection.js';

/** Sizes and counts of the mirror. */
export async function readPgMirrorStats(h: PgMirror, schemaVersion: number): Promise<MirrorStats> {
  try {
    const q = h.pool;
    const tables = [];
    for (const name of MIRROR_TABLES) {
      const r = (
        await queryRows(q, `SELECT pg_total_relation_size($1::regclass), (SELECT count(*) FROM ${name})`, [
          name,
        ])
      )[0] ?? [0, 0];
      tables.push({ name, bytes: Number(r[0]), rows: Number(r[1]) });
    }
    const span = (
      await queryRows(q, 'SELECT min(started_at_ms), max(started_at_ms), count(*) FROM snapshots')
    )[0] ?? [null, null, 0];
    const fileBytes = Number(await queryValue(q, 'SELECT pg_database_size(current_database())'));
    const count = async (sql: string): Promise<number> => Number((await queryValue(q, sql)) ?? 0);
    const observations = tables.find((t) => t.name === 'observations')?.rows ?? 0;
    return {
      path: h.path,
      schemaVersion,
      fileBytes,
      freeBytes: 0,
      tables,
      snapshots: Number(span[2]),
      snapshotsWithRaw: await count('SELECT count(DISTINCT snapshot_id) FROM responses'),
      pools: await count('SELECT count(*) FROM pool_history'),
      contracts: tables.find((t) => t.name === 'contracts')?.rows ?? 0,
      observations,
      firstSnapshotMs: span[0] === null ? null : Number(span[0]),
      lastSnapshotMs: span[1] === null ? null : Number(span[1]),
      bytesPerObservation: observations === 0 ? null : Math.round(fileBytes / observations),
      failedAttempts: tables.find((t) => t.name === 'failed_attempts')?.rows ?? 0,
    };
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', 'readMirrorStats', e);
  }
}

/** Removes the raw responses of snapshots started before `beforeMs` and the bodies left unreferenced. */
export async function prunePgRawResponses(h: PgMirror, beforeMs: number): Promise<PruneResult> {
  return writePgMirror(h, 'pruning (rolled back)', 'locked', async (c) => {
    const snapshots = Number(
      await queryValue(
        c,
        `SELECT count(DISTINCT r.snapshot_id) FROM responses r JOIN snapshots s ON s.id = r.snapshot_id
           WHERE s.started_at_ms < $1`,
        [beforeMs],
      ),
    );
    const responses =
      (
        await c.query(
          'DELETE FROM responses WHERE snapshot_id IN (SELECT id FROM snapshots WHERE started_at_ms < $1)',
          [beforeMs],
        )
      ).rowCount ?? 0;
    // responses by body: built for this transaction only (schema 8), as on SQLite
    await c.query(`CREATE INDEX ${PRUNE_INDEX} ON responses (body_sha256)`);
    const orphan = 'NOT EXISTS (SELECT 1 FROM responses r WHERE r.body_sha256 = b.sha256)';
    const gone = await queryRows(c, `DELETE FROM bodies AS b WHERE ${orphan} RETURNING size`);
    await c.query(`DROP INDEX ${PRUNE_INDEX}`);
    const bodyBytes = gone.reduce((s, r) => s + Number(r[0]), 0);
    return { snapshots, responses, bodies: gone.length, bodyBytes };
  });
}

/** VACUUM ANALYZE of the tables pruning touches; the sizes are the database's before and after. */
export async function vacuumPgMirror(
  h: PgMirror,
): Promise<{ readonly beforeBytes: number; readonly afterBytes: number }> {
  if (h.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${h.path}" was opened read-only`);
  const size = async (): Promise<number> =>
    Number(await queryValue(h.pool, 'SELECT pg_database_size(current_database())'));
  try {
    const beforeBytes = await size();
    await h.pool.query('VACUUM (ANALYZE) responses, bodies');
    return { beforeBytes, afterBytes: await size() };
  } catch (e) {
    throw toStoreError(h, 'STORE_WRITE_FAILED', 'vacuuming (nothing lost)', e);
  }
}
