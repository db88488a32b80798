/**
 * Audit runs and their findings in the mirror: one row per run (outcome, checks, summary as
 * JSON) and one row per finding with its code / severity / pool / area / label as columns and the
 * evidence as JSON (bigints written as decimal strings). Recording is one transaction; a run with
 * the same `runKey` is recorded once.
 */
import type { CheckOutcome, Finding } from '../../core/audit/finding.js';
import { StoreError } from '../../errors/store.js';
import { insertRows, mirrorDb, writeMirror } from './mirror-db.js';
import { guardStore, type Mirror } from './open-mirror.js';
import { defineColumns } from './row-columns.js';

export interface AuditRunInput {
  /** the mirror snapshot the run audited, if it was recorded */
  readonly snapshotId: number | null;
  readonly baseUrl: string;
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
  /** 'passed' | 'failed' | 'could-not-check' */
  readonly outcome: string;
  readonly checks: readonly CheckOutcome[];
  readonly findings: readonly Finding[];
  /** free-form totals for reports */
  readonly summary?: Readonly<Record<string, unknown>>;
  /** idempotence key: a second run with the same key is not recorded again */
  readonly runKey?: string;
}

/** A recorded run as read back: the input with its id and its summary (`{}` when none was given). */
export interface AuditRunRow extends Omit<AuditRunInput, 'summary' | 'runKey'> {
  readonly id: number;
  readonly summary: Readonly<Record<string, unknown>>;
}

/** audit_runs and findings rows (toAuditRunRows; both backends) */
export const AUDIT_RUN_COLUMNS = defineColumns(
  'audit_runs',
  `run_key text, snapshot_id bigint, base_url text, started_at_ms bigint, finished_at_ms bigint, outcome text,
   checks_json text, summary_json text`,
);
export const FINDING_COLUMNS = defineColumns(
  'findings',
  `audit_run_id bigint, seq int, code text, severity text, pool text, area text, label text, message text,
   evidence_json text`,
);

/** The audit_runs row of `run` (JSON columns as text). */
export function toAuditRunRows(run: AuditRunInput): object[] {
  const { snapshotId, baseUrl, startedAtMs, finishedAtMs, outcome } = run;
  const json = { checksJson: toJson(run.checks), summaryJson: toJson(run.summary ?? {}) };
  return [{ runKey: run.runKey ?? null, snapshotId, baseUrl, startedAtMs, finishedAtMs, outcome, ...json }];
}

/** The findings rows of run `id`. */
export function toFindingRows(auditRunId: number, run: AuditRunInput): object[] {
  return run.findings.map((f, seq) => ({ auditRunId, seq, ...f, evidenceJson: toJson(f.evidence) }));
}

/** JSON with bigints as decimal strings (evidence, checks, summaries; both backends). */
export function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

/** Records one audit run and its findings; returns the run id (the existing one for a repeated runKey). */
export function recordAuditRun(mirror: Mirror, run: AuditRunInput): number {
  return writeMirror(
    mirror,
    (path) => `recording the audit run into "${path}" failed`,
    (db): number => {
      if (run.runKey !== undefined) {
        const old = db.prepare('SELECT id FROM audit_runs WHERE run_key = ?').pluck().get(run.runKey);
        if (typeof old === 'number') return old;
      }
      const [id = 0] = insertRows(db, AUDIT_RUN_COLUMNS, toAuditRunRows(run));
      insertRows(db, FINDING_COLUMNS, toFindingRows(id, run));
      return id;
    },
  );
}

function parseJson(text: unknown, what: string): unknown {
  try {
    return JSON.parse(String(text));
  } catch (e) {
    throw new StoreError('STORE_CORRUPT', `${what} is not JSON`, { cause: e });
  }
}

/** Audit runs, newest first, with their findings. */
export function readAuditRuns(mirror: Mirror, options: { readonly limit?: number } = {}): AuditRunRow[] {
  return guardStore(mirror, 'readAuditRuns', () => {
    const runs = mirrorDb(mirror)
      .prepare('SELECT * FROM audit_runs ORDER BY id DESC LIMIT ?')
      .all(options.limit ?? -1) as Record<string, unknown>[];
    const fstmt = mirrorDb(mirror).prepare('SELECT * FROM findings WHERE audit_run_id = ? ORDER BY seq');
    return runs.map((r) => toAuditRunRow(r, fstmt.all(Number(r.id)) as Record<string, unknown>[]));
  });
}

/** An audit run with its findings from rows keyed by column name (both backends). */
export function toAuditRunRow(
  r: Record<string, unknown>,
  findingRows: readonly Record<string, unknown>[],
): AuditRunRow {
  const id = Number(r.id);
  const findings = findingRows.map(
    (f) =>
      ({
        code: f.code,
        severity: f.severity,
        pool: f.pool ?? null,
        area: f.area,
        label: f.label,
        message: f.message,
        evidence: parseJson(f.evidence_json, `findings.evidence_json of run ${id}`),
      }) as Finding,
  );
  return {
    id,
    snapshotId: typeof r.snapshot_id === 'number' ? r.snapshot_id : null,
    baseUrl: String(r.base_url),
    startedAtMs: Number(r.started_at_ms),
    finishedAtMs: Number(r.finished_at_ms),
    outcome: String(r.outcome),
    checks: parseJson(r.checks_json, `audit_runs.checks_json of run ${id}`) as CheckOutcome[],
    summary: parseJson(r.summary_json, `audit_runs.summary_json of run ${id}`) as Record<string, unknown>,
    findings,
  };
}
