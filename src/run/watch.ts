/**
 * The `watch` pipeline (docs/watch.md), one straight loop: a snapshot every `everyMs`
 * (src/run/snapshot.ts) and a full audit every `auditEveryMs` (src/run/audit.ts `runAudit`, which
 * records its own snapshot, so a snapshot tick that falls on an audit is served by it), one step at
 * a time — two steps never overlap. Ticks lie on a fixed grid from the start: when a step ends
 * after more than one tick of a schedule has passed, the latest runs (late) and the earlier ones
 * are logged as missed and skipped, never queued. Consecutive faults (a snapshot that got nothing,
 * an audit that could not check) pause the loop, doubling per fault up to `maxBackoffMs`; each
 * request inside a step is retried by the one HTTP client (src/io/http) within its budget. A stop
 * (the AbortSignal) ends a sleep at once and a step after it finished. The retention policy
 * (applyRetention, src/run/mirror.ts) runs at start and then hourly, between steps. The clock and the steps are
 * passed in, so the loop is tested without waiting. Returns a report; never writes to stdout.
 */
import { isReserveAuditError } from '../errors/base.js';
import type { MirrorStore } from '../io/store/index.js';
import type { AuditReport } from './audit.js';
import { applyRetention as applyRetentionPolicy } from './mirror.js';
import type { RetentionPolicy } from './retention-policy.js';
import type { SnapshotReport } from './snapshot.js';
import {
  computeAuditAlerts,
  computeInitialAlertState,
  computeStaleAlerts,
  type WatchAlert,
  type WatchAlertState,
} from './watch-alerts.js';
import { SYSTEM_WATCH_CLOCK, type WatchClock } from './watch-clock.js';
import type { WatchMetrics } from './watch-metrics.js';

/** One log event: `event` names it; the other fields are its data (docs/watch.md "Logs"). */
export interface WatchEvent {
  readonly level: 'info' | 'warn' | 'error';
  readonly event: string;
  readonly [field: string]: unknown;
}

/** The two steps the loop runs (src/run/watch-steps.ts builds the real ones). */
export interface WatchSteps {
  snapshot(): Promise<SnapshotReport>;
  audit(): Promise<AuditReport>;
}

export interface RunWatchOptions {
  /** the exchange's base URL in its shown (credential-stripped) form, for logs and alerts */
  readonly baseUrl: string;
  /** the mirror the steps record into: the loop reads the last audit, latest observations and sizes */
  readonly mirror: MirrorStore;
  readonly everyMs: number;
  readonly auditEveryMs: number;
  /** could-not-check for longer than this fires the `audit-stale` alert */
  readonly staleAfterMs: number;
  readonly steps: WatchSteps;
  readonly stop: AbortSignal;
  readonly log: (e: WatchEvent) => void;
  readonly clock?: WatchClock;
  readonly metrics?: WatchMetrics;
  /** hands an alert over for delivery; must not block (src/io/alerts queues and retries) */
  readonly alert?: (a: WatchAlert) => void;
  /** the longest pause after consecutive faults (default 5 minutes, at least everyMs) */
  readonly maxBackoffMs?: number;
  /** how often the mirror's size is read for the metrics (default 60 s) */
  readonly mirrorStatsEveryMs?: number;
  /** the retention policy applied at start and then every `everyMs` (null: the mirror keeps everything) */
  readonly retention?: (RetentionPolicy & { readonly everyMs: number }) | null;
}

export interface WatchReport {
  readonly snapshots: number;
  readonly audits: number;
  readonly missed: { readonly snapshot: number; readonly audit: number };
  /** ticks skipped while the loop paused after faults */
  readonly backoffSkipped: number;
  readonly faults: number;
  readonly lastAuditOutcome: string | null;
  readonly alerts: number;
}

const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;
const DEFAULT_MIRROR_STATS_EVERY_MS = 60_000;

/** A failure that ends the watch: a mirror it cannot use, or a bug (anything not a ReserveAuditError). */
function isFatal(e: unknown): boolean {
  return !isReserveAuditError(e) || e.code.startsWith('STORE_');
}

const errorCode = (e: unknown): string => (isReserveAuditError(e) ? e.code : 'UNKNOWN');
const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Runs until `stop` aborts; throws only when the mirror fails or on a bug. */
export async function runWatch(o: RunWatchOptions): Promise<WatchReport> {
  const clock = o.clock ?? SYSTEM_WATCH_CLOCK;
  const maxBackoffMs = Math.max(o.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS, o.everyMs);
  const statsEveryMs = o.mirrorStatsEveryMs ?? DEFAULT_MIRROR_STATS_EVERY_MS;
  const t0 = clock.now();
  const counts = { snapshots: 0, audits: 0, faults: 0, alerts: 0, backoffSkipped: 0 };
  const missed = { snapshot: 0, audit: 0 };
  let lastAuditOutcome: string | null = null;

  // a restart on the same mirror: the last audit's incident was already told
  const last = (await o.mirror.readAuditRuns({ limit: 1 }))[0] ?? null;
  let alertState: WatchAlertState = computeInitialAlertState(t0, last, o.baseUrl);
  o.log({
    level: 'info',
    event: 'watch-started',
    base_url: o.baseUrl,
    mirror: o.mirror.path,
    every_ms: o.everyMs,
    audit_every_ms: o.auditEveryMs,
    stale_after_ms: o.staleAfterMs,
    ...(last === null || last.baseUrl !== o.baseUrl ? {} : { last_audit_outcome: last.outcome }),
  });

  /** the alert state after a step or the time passed, its alerts logged and handed over */
  const advance = (next: {
    readonly state: WatchAlertState;
    readonly alerts: readonly WatchAlert[];
  }): void => {
    alertState = next.state;
    for (const a of next.alerts) {
      counts.alerts++;
      o.log({
        level: a.status === 'firing' ? 'warn' : 'info',
        event: 'alert',
        kind: a.kind,
        status: a.status,
        severity: a.severity,
        codes: a.codes,
        pools: a.pools,
        evidence: a.evidence,
      });
      o.alert?.(a);
    }
  };

  let lastStatsMs = Number.NEGATIVE_INFINITY;
  const readMirrorSize = async (now: number): Promise<void> => {
    if (o.metrics === undefined || now - lastStatsMs < statsEveryMs) return;
    lastStatsMs = now;
    const s = await o.mirror.readMirrorStats();
    o.metrics.observeMirror({ bytes: s.fileBytes, snapshots: s.snapshots });
  };
  await readMirrorSize(t0);

  let lastRetentionMs = Number.NEGATIVE_INFINITY;
  /** the retention policy, when it is due: one more step of the loop (never beside another) */
  const applyRetention = async (): Promise<void> => {
    const r = o.retention;
    const start = clock.now();
    if (r == null || start - lastRetentionMs < r.everyMs) return;
    lastRetentionMs = start;
    const done = await applyRetentionPolicy(o.mirror, r, start);
    o.log({
      level: 'info',
      event: 'retention',
      duration_ms: clock.now() - start,
      raw_snapshots_pruned: done.pruned.snapshots,
      raw_bytes_pruned: done.pruned.bodyBytes,
      ...(done.archived === null
        ? {}
        : { observations_archived: done.archived.observations, contracts_archived: done.archived.contracts }),
      ...(done.archiveSkipped === null ? {} : { archive_skipped: done.archiveSkipped }),
    });
  };
  await applyRetention();

  let consecutiveFaults = 0;
  let pauseUntil = t0;
  let nextSnapshot = t0;
  let nextAudit = t0;

  /** the schedule's next tick after skipping every tick but the latest that has passed */
  const collapse = (kind: 'snapshot' | 'audit', next: number, every: number, now: number): number => {
    if (next > now) return next;
    const passed = Math.floor((now - next) / every);
    if (passed === 0) return next;
    if (consecutiveFaults > 0) {
      counts.backoffSkipped += passed;
      o.log({ level: 'info', event: 'tick-skipped', kind, ticks: passed, reason: 'backoff' });
    } else {
      missed[kind] += passed;
      o.metrics?.observeMissed(kind, passed);
      o.log({
        level: 'warn',
        event: 'tick-missed',
        kind,
        ticks: passed,
        reason: 'previous step still running',
      });
    }
    return next + passed * every;
  };

  while (!o.stop.aborted) {
    const now = clock.now();
    const due = Math.max(Math.min(nextSnapshot, nextAudit), pauseUntil);
    if (now < due) {
      await clock.sleep(due - now, o.stop);
      continue;
    }
    nextSnapshot = collapse('snapshot', nextSnapshot, o.everyMs, now);
    nextAudit = collapse('audit', nextAudit, o.auditEveryMs, now);
    const kind = nextAudit <= now ? 'audit' : 'snapshot';
    const lateMs = now - (kind === 'audit' ? nextAudit : nextSnapshot);
    // the audit records a snapshot of its own: it serves a snapshot tick that is due too
    if (kind === 'audit') {
      nextAudit += o.auditEveryMs;
      if (nextSnapshot <= now) nextSnapshot += o.everyMs;
    } else nextSnapshot += o.everyMs;

    /** when the step started and ended, and how late it started: the fields of its log line */
    const timing = (end: number) => ({ started_at_ms: now, duration_ms: end - now, late_ms: lateMs });
    let fault = false;
    let faultCodes: string[] = [];
    if (kind === 'snapshot') {
      let result: 'ok' | 'partial' | 'failed';
      try {
        const r = await o.steps.snapshot();
        counts.snapshots++;
        // a failed attempt (every section failed, or no pool where the mirror knew pools) is no
        // snapshot of the exchange: a fault for the backoff and the staleness alert
        const allFailed = r.failedAttempt !== null || (r.pools === 0 && r.failedSections.length > 0);
        result =
          r.failedSections.length === 0 && r.failedAttempt === null ? 'ok' : allFailed ? 'failed' : 'partial';
        fault = allFailed;
        faultCodes = r.failedSections.map((f) => f.code);
        o.log({
          level: result === 'ok' ? 'info' : 'warn',
          event: 'snapshot',
          result,
          snapshot_id: r.snapshotId,
          ...timing(clock.now()),
          pools: r.pools,
          new_contracts: r.newContracts.length,
          mismatch: r.mismatch,
          requests: r.requests,
          ...(r.failedSections.length === 0
            ? {}
            : { failed_sections: r.failedSections.map((f) => `${f.section}: ${f.code}`) }),
          ...(r.failedAttempt === null ? {} : { failed_attempt: r.failedAttempt.reason }),
        });
      } catch (e) {
        if (isFatal(e)) throw e;
        result = 'failed';
        fault = true;
        faultCodes = [errorCode(e)];
        o.log({
          level: 'warn',
          event: 'snapshot',
          result,
          ...timing(clock.now()),
          error: errorText(e),
        });
      }
      o.metrics?.observeSnapshot({ result, durationMs: clock.now() - now, atMs: clock.now() });
      if (fault) advance(computeStaleAlerts(alertState, clock.now(), o.staleAfterMs, faultCodes));
    } else {
      try {
        const r = await o.steps.audit();
        counts.audits++;
        lastAuditOutcome = r.outcome;
        const end = clock.now();
        fault = r.outcome === 'could-not-check';
        o.log({
          level: r.outcome === 'passed' ? 'info' : 'warn',
          event: 'audit',
          outcome: r.outcome,
          exit_code: r.summary.exitCode,
          snapshot_id: r.summary.mirror?.snapshotId ?? null,
          audit_run_id: r.summary.mirror?.auditRunId ?? null,
          ...timing(end),
          pools: r.summary.pools,
          findings: r.summary.findings,
          codes: [...new Set(r.findings.map((f) => f.code))].sort(),
          requests: r.summary.requests ?? null,
        });
        if (o.metrics !== undefined)
          o.metrics.observeAudit({ report: r, latest: await o.mirror.readLatestObservations(), atMs: end });
        advance(computeAuditAlerts(alertState, r, end, o.staleAfterMs));
      } catch (e) {
        if (isFatal(e)) throw e;
        fault = true;
        lastAuditOutcome = 'could-not-check';
        const end = clock.now();
        o.log({
          level: 'warn',
          event: 'audit',
          outcome: 'could-not-check',
          exit_code: 2,
          ...timing(end),
          error: errorText(e),
        });
        o.metrics?.observeAuditError({ durationMs: end - now, atMs: end });
        advance(computeStaleAlerts(alertState, end, o.staleAfterMs, [errorCode(e)]));
      }
      await readMirrorSize(clock.now());
    }
    await applyRetention();
    const end = clock.now();
    advance(computeStaleAlerts(alertState, end, o.staleAfterMs));
    if (fault) {
      counts.faults++;
      consecutiveFaults++;
      const pause = Math.min(o.everyMs * 2 ** (consecutiveFaults - 1), maxBackoffMs);
      pauseUntil = end + pause;
      if (consecutiveFaults > 1)
        o.log({ level: 'warn', event: 'backoff', faults: consecutiveFaults, pause_ms: pause });
    } else consecutiveFaults = 0;
  }
  const report: WatchReport = {
    snapshots: counts.snapshots,
    audits: counts.audits,
    missed,
    backoffSkipped: counts.backoffSkipped,
    faults: counts.faults,
    lastAuditOutcome,
    alerts: counts.alerts,
  };
  o.log({ level: 'info', event: 'watch-stopped', ...report });
  return report;
}
