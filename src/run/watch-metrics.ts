/**
 * The metrics of `watch` (docs/watch.md "Metrics"), on a prom-client Registry the caller creates
 * and serves (never the global default registry). Every name starts with `reserve_audit_`.
 * Per-pool series are bounded: at most `maxPools` pools (the first by pool ID) get labels, the
 * rest are counted in `reserve_audit_pools_unlabelled`. Endpoint labels are bounded the same way
 * (MAX_ENDPOINTS, then `other`). Values are floats by the exposition format's nature: a reserve
 * shown here is a display value; the audit itself never computes with a JavaScript number.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import type { PoolObservation } from '../io/store/index.js';
import type { AuditReport } from './audit.js';
import type { WatchAlert } from './watch-alerts.js';

/** the most distinct endpoint labels; further paths are counted as `other` */
const MAX_ENDPOINTS = 40;
/** default bound of the pools that get per-pool series */
export const DEFAULT_METRICS_MAX_POOLS = 100;

/** `1234.5` from a decimal string (display only), or null when there is none. */
function toDisplayNumber(text: string | null): number | null {
  if (text === null) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

export interface WatchMetrics {
  observeSnapshot(o: {
    readonly result: 'ok' | 'partial' | 'failed';
    readonly durationMs: number;
    readonly atMs: number;
  }): void;
  observeAudit(o: {
    readonly report: AuditReport;
    readonly latest: readonly PoolObservation[];
    readonly atMs: number;
  }): void;
  /** an audit that threw (could not run at all): verdict 2 */
  observeAuditError(o: { readonly durationMs: number; readonly atMs: number }): void;
  observeAttempt(o: {
    readonly endpoint: string;
    readonly retry: boolean;
    readonly status: number | null;
  }): void;
  observeMissed(kind: 'snapshot' | 'audit', n: number): void;
  observeMirror(o: { readonly bytes: number; readonly snapshots: number }): void;
  observeAlert(alert: WatchAlert, delivered: boolean): void;
}

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Registers the watch's metrics on `registry` (plus the process metrics, prefixed). */
export function createWatchMetrics(registry: Registry, o: { readonly maxPools?: number } = {}): WatchMetrics {
  const maxPools = o.maxPools ?? DEFAULT_METRICS_MAX_POOLS;
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'reserve_audit_' });
  // every metric on `registry` only; unlabelled ones take no label names
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> =>
    new Gauge({ name, help, labelNames, registers });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> =>
    new Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> =>
    new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers });
  const verdict = gauge(
    'reserve_audit_audit_verdict',
    'exit code of the last audit: 0 passed, 1 failed, 2 could not check (2 until the first audit)',
  );
  verdict.set(2);
  const findings = gauge('reserve_audit_findings', 'findings of the last audit by code and severity', [
    'code',
    'severity',
  ]);
  const poolsByLevel = gauge(
    'reserve_audit_pools',
    'pools of the last audit by assurance level (the proof status of each pool)',
    ['level'],
  );
  const unlabelled = gauge(
    'reserve_audit_pools_unlabelled',
    'pools of the last audit left out of the per-pool series (beyond --metrics-max-pools)',
  );
  const reserve = gauge(
    'reserve_audit_pool_reserve',
    'reserve of a pool (side a or b) from its proven contract, as a display value',
    ['pool', 'side'],
  );
  const lpShare = gauge(
    'reserve_audit_pool_lp_share_value',
    'sqrt(a*b)/L of a pool from its proven contract, as a display value',
    ['pool'],
  );
  const proofAge = gauge(
    'reserve_audit_pool_proof_age_seconds',
    'age of the reserve contract a pool published at the last audit (now - ledger_created_at)',
    ['pool'],
  );
  const lastProven = gauge(
    'reserve_audit_pool_last_proven_timestamp_seconds',
    'when an audit last proved the pool (its proof status was proven), unix seconds',
    ['pool'],
  );
  const snapshotDuration = histogram(
    'reserve_audit_snapshot_duration_seconds',
    'duration of the snapshot steps by result (ok, partial, failed)',
    ['result'],
  );
  const auditDuration = histogram(
    'reserve_audit_audit_duration_seconds',
    'duration of the audits by outcome (passed, failed, could-not-check, error)',
    ['outcome'],
  );
  const lastSnapshot = gauge(
    'reserve_audit_last_snapshot_timestamp_seconds',
    'when the last snapshot (or audit) was recorded completely, unix seconds',
  );
  const lastAudit = gauge(
    'reserve_audit_last_audit_timestamp_seconds',
    'when the last audit finished, unix seconds',
  );
  const requests = counter(
    'reserve_audit_http_requests_total',
    'HTTP attempts sent to the exchange by endpoint, retries included',
    ['endpoint'],
  );
  const retries = counter(
    'reserve_audit_http_retries_total',
    'HTTP attempts that were retries of an earlier one, by endpoint',
    ['endpoint'],
  );
  const throttled = counter(
    'reserve_audit_http_throttled_total',
    'HTTP answers 429 (rate limited) by endpoint',
    ['endpoint'],
  );
  const failedAttempts = counter(
    'reserve_audit_http_failed_total',
    'HTTP attempts without a usable answer (5xx, 429, reset, timeout) by endpoint',
    ['endpoint'],
  );
  const missed = counter(
    'reserve_audit_ticks_missed_total',
    'scheduled runs skipped because the previous step was still running',
    ['kind'],
  );
  const runs = counter('reserve_audit_runs_total', 'steps run by kind (snapshot, audit) and result', [
    'kind',
    'result',
  ]);
  const mirrorBytes = gauge(
    'reserve_audit_mirror_bytes',
    'size of the mirror database (as mirror stats reports it)',
  );
  const mirrorSnapshots = gauge('reserve_audit_mirror_snapshots', 'snapshots held by the mirror');
  const alerts = counter(
    'reserve_audit_alerts_total',
    'alert notifications by kind and status, and whether every webhook took them',
    ['kind', 'status', 'delivered'],
  );
  const endpoints = new Set<string>();
  const provenAt = new Map<string, number>();

  const endpointLabel = (endpoint: string): string => {
    if (endpoints.has(endpoint)) return endpoint;
    if (endpoints.size >= MAX_ENDPOINTS) return 'other';
    endpoints.add(endpoint);
    return endpoint;
  };

  return {
    observeSnapshot({ result, durationMs, atMs }) {
      snapshotDuration.observe({ result }, durationMs / 1000);
      runs.inc({ kind: 'snapshot', result });
      if (result !== 'failed') lastSnapshot.set(atMs / 1000);
    },
    observeAudit({ report, latest, atMs }) {
      const s = report.summary;
      verdict.set(s.exitCode);
      auditDuration.observe({ outcome: report.outcome }, s.durationMs / 1000);
      runs.inc({ kind: 'audit', result: report.outcome });
      lastAudit.set(atMs / 1000);
      if (s.mirror?.snapshotId != null) lastSnapshot.set(atMs / 1000);
      findings.reset();
      const byKey = new Map<string, { code: string; severity: string; n: number }>();
      for (const f of report.findings) {
        const k = `${f.code}\u0000${f.severity}`;
        const e = byKey.get(k) ?? { code: f.code, severity: f.severity, n: 0 };
        e.n++;
        byKey.set(k, e);
      }
      for (const e of byKey.values()) findings.set({ code: e.code, severity: e.severity }, e.n);
      poolsByLevel.reset();
      const levels = new Map<string, number>();
      for (const p of report.pools) {
        const level = p.assurance;
        levels.set(level, (levels.get(level) ?? 0) + 1);
      }
      for (const [level, n] of levels) poolsByLevel.set({ level }, n);
      // per pool: the first maxPools by pool ID (a stable set while the exchange's pools do not change)
      const pools = [...report.pools].sort((a, b) =>
        a.poolId < b.poolId ? -1 : a.poolId > b.poolId ? 1 : 0,
      );
      const shown = pools.slice(0, maxPools);
      unlabelled.set(pools.length - shown.length);
      const createdAt = new Map<string, number>();
      for (const o of latest) if (o.ledgerCreatedAtMs !== null) createdAt.set(o.poolId, o.ledgerCreatedAtMs);
      for (const g of [reserve, lpShare, proofAge, lastProven]) g.reset();
      for (const p of pools)
        if (p.assurance === 'ledger-confirmed' || p.assurance === 'id-verified') provenAt.set(p.poolId, atMs);
      for (const p of shown) {
        const a = toDisplayNumber(p.reserveA);
        const b = toDisplayNumber(p.reserveB);
        const v = toDisplayNumber(p.lpShareValue);
        if (a !== null) reserve.set({ pool: p.poolId, side: 'a' }, a);
        if (b !== null) reserve.set({ pool: p.poolId, side: 'b' }, b);
        if (v !== null) lpShare.set({ pool: p.poolId }, v);
        const c = createdAt.get(p.poolId);
        if (c !== undefined) proofAge.set({ pool: p.poolId }, Math.max(0, (atMs - c) / 1000));
        const t = provenAt.get(p.poolId);
        if (t !== undefined) lastProven.set({ pool: p.poolId }, t / 1000);
      }
    },
    observeAuditError({ durationMs, atMs }) {
      verdict.set(2);
      auditDuration.observe({ outcome: 'error' }, durationMs / 1000);
      runs.inc({ kind: 'audit', result: 'error' });
      lastAudit.set(atMs / 1000);
    },
    observeAttempt({ endpoint, retry, status }) {
      const label = { endpoint: endpointLabel(endpoint) };
      requests.inc(label);
      if (retry) retries.inc(label);
      if (status === 429) throttled.inc(label);
      if (status === null || status === 429 || status >= 500) failedAttempts.inc(label);
    },
    observeMissed(kind, n) {
      missed.inc({ kind }, n);
    },
    observeMirror({ bytes, snapshots }) {
      mirrorBytes.set(bytes);
      mirrorSnapshots.set(snapshots);
    },
    observeAlert(alert, delivered) {
      alerts.inc({ kind: alert.kind, status: alert.status, delivered: delivered ? 'yes' : 'no' });
    },
  };
}
