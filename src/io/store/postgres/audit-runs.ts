/**
 * Audit runs and their findings in a PostgreSQL mirror — the rows and meaning of ../audit-runs.ts
 * (SQLite): one transaction per run; a run with the same `runKey` is recorded once, whatever the
 * race (`ON CONFLICT (run_key) DO NOTHING`, then the existing id).
 */
import {
  AUDIT_RUN_COLUMNS,
  type AuditRunInput,
  type AuditRunRow,
  FINDING_COLUMNS,
  toAuditRunRow,
  toAuditRunRows,
  toFindingRows,
} from '../audit-runs.js';
import { insertPgRows, type PgMirror, queryRows, toStoreError, writePgMirror } from './connection.js';

/** Records one audit run and its findings; returns its id (the existing one for a repeated runKey). */
export async function recordPgAuditRun(h: PgMirror, run: AuditRunInput): Promise<number> {
  return writePgMirror(h, 'recording the audit run', 'unlocked', async (c) => {
    const ins = await insertPgRows(
      c,
      AUDIT_RUN_COLUMNS,
      toAuditRunRows(run),
      'ON CONFLICT (run_key) DO NOTHING RETURNING id',
    );
    const created = ins[0];
    if (created === undefined) {
      const old = await queryRows(c, 'SELECT id FROM audit_runs WHERE run_key = $1', [run.runKey ?? null]);
      return Number(old[0]?.[0]);
    }
    const id = Number(created[0]);
    await insertPgRows(c, FINDING_COLUMNS, toFindingRows(id, run));
    return id;
  });
}

/** Audit runs, newest first, with their findings. */
export async function readPgAuditRuns(
  h: PgMirror,
  options: { readonly limit?: number } = {},
): Promise<AuditRunRow[]> {
  try {
    const runs = (
      await h.pool.query('SELECT * FROM audit_runs ORDER BY id DESC LIMIT $1', [options.limit ?? null])
    ).rows as Record<string, unknown>[];
    const findings = (
      await h.pool.query(
        'SELECT * FROM findings WHERE audit_run_id = ANY($1::bigint[]) ORDER BY audit_run_id, seq',
        [runs.map((r) => r.id)],
      )
    ).rows as Record<string, unknown>[];
    const byRun = new Map<number, Record<string, unknown>[]>();
    for (const f of findings) {
      const id = Number(f.audit_run_id);
      const list = byRun.get(id);
      if (list === undefined) byRun.set(id, [f]);
      else list.push(f);
    }
    return runs.map((r) => toAuditRunRow(r, byRun.get(Number(r.id)) ?? []));
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', 'readAuditRuns', e);
  }
}
