/**
 * The watch loop (src/run/watch.ts) on a manual clock: steps are fakes that take simulated time,
 * the mirror is a real SQLite file. What it must do: a fixed grid of ticks, an audit serving the
 * snapshot tick it falls on, steps never overlapping, missed ticks skipped (not queued), consecutive
 * faults backing off, a stop finishing the current step, and alerts only on transitions.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Finding, makeFinding } from '../../src/core/audit/index.js';
import { HttpError } from '../../src/errors/http.js';
import { type MirrorStore, openMirrorStore } from '../../src/io/store/index.js';
import type { AuditReport } from '../../src/run/audit.js';
import type { SnapshotReport } from '../../src/run/snapshot.js';
import { runWatch, type WatchEvent } from '../../src/run/watch.js';
import type { WatchAlert } from '../../src/run/watch-alerts.js';
import type { WatchClock } from '../../src/run/watch-clock.js';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

interface Step {
  readonly kind: 'snapshot' | 'audit';
  readonly start: number;
  readonly end: number;
}

function manualClock(): WatchClock & { t: number } {
  const c = {
    t: T0,
    now: () => c.t,
    sleep: async (ms: number, signal: AbortSignal) => {
      if (!signal.aborted) c.t += ms;
    },
  };
  return c;
}

function snapshotReport(o: Partial<SnapshotReport> = {}): SnapshotReport {
  return {
    snapshotId: 1,
    failedAttempt: null,
    startedAtMs: T0,
    pools: 8,
    newContracts: [],
    verified: 0,
    mismatch: 0,
    couldNotCheck: 0,
    requests: 20,
    failedSections: [],
    proofs: new Map(),
    ...o,
  };
}

function auditReport(outcome: AuditReport['outcome'], findings: Finding[] = []): AuditReport {
  const exitCode = outcome === 'passed' ? 0 : outcome === 'failed' ? 1 : 2;
  // the fields the loop reads; the rest of a report does not matter to it
  return {
    outcome,
    findings,
    checks: [],
    pools: [],
    summary: { exitCode, pools: 8, findings: { error: 0, warning: 0, info: 0 }, mirror: null },
  } as unknown as AuditReport;
}

const tamperFinding = makeFinding('PROOF_FIELD_MISMATCH', 'pool-1', 'reserve_a differs from the blob', {});
const fetchFailed = makeFinding('FETCH_FAILED', null, '/pools/proof could not be fetched', {});

let mirror: MirrorStore;
beforeEach(async () => {
  mirror = await openMirrorStore(join(mkdtempSync(join(tmpdir(), 'watch-loop-')), 'm.db'));
});
afterEach(async () => {
  await mirror.close();
});

/** Runs the loop until `until` simulated ms have passed (then aborts after the running step). */
async function run(o: {
  clock: WatchClock & { t: number };
  until: number;
  snapshot?: (i: number) => { ms: number; result: SnapshotReport | Error };
  audit?: (i: number) => { ms: number; result: AuditReport | Error };
  everyMs?: number;
  auditEveryMs?: number;
  staleAfterMs?: number;
  retention?: { keepRawMs: number; archiveAfterMs: number | null; everyMs: number };
}) {
  const steps: Step[] = [];
  const events: WatchEvent[] = [];
  const alerts: WatchAlert[] = [];
  const stop = new AbortController();
  let busy = false;
  const step = async <T>(kind: Step['kind'], r: { ms: number; result: T | Error }): Promise<T> => {
    expect(busy).toBe(false);
    busy = true;
    const start = o.clock.t;
    o.clock.t += r.ms;
    steps.push({ kind, start, end: o.clock.t });
    busy = false;
    if (o.clock.t - T0 >= o.until) stop.abort();
    if (r.result instanceof Error) throw r.result;
    return r.result;
  };
  let s = 0;
  let a = 0;
  const report = await runWatch({
    baseUrl: 'http://exchange.test/v1/public',
    mirror,
    everyMs: o.everyMs ?? 2_000,
    auditEveryMs: o.auditEveryMs ?? 20_000,
    staleAfterMs: o.staleAfterMs ?? 60_000,
    steps: {
      snapshot: () => step('snapshot', (o.snapshot ?? (() => ({ ms: 100, result: snapshotReport() })))(s++)),
      audit: () => step('audit', (o.audit ?? (() => ({ ms: 500, result: auditReport('passed') })))(a++)),
    },
    stop: stop.signal,
    log: (e) => events.push(e),
    clock: o.clock,
    alert: (x) => alerts.push(x),
    retention: o.retention ?? null,
  });
  return { steps, events, alerts, report };
}

describe('the schedule', () => {
  it('audits at once, then snapshots on the 2 s grid and audits on the 20 s grid; an audit serves its snapshot tick', async () => {
    const clock = manualClock();
    const { steps, report } = await run({ clock, until: 40_500 });
    const at = (k: Step['kind']) => steps.filter((x) => x.kind === k).map((x) => x.start - T0);
    expect(at('audit')).toEqual([0, 20_000, 40_000]);
    // every 2 s tick but those the audits served
    expect(at('snapshot')).toEqual([
      2_000, 4_000, 6_000, 8_000, 10_000, 12_000, 14_000, 16_000, 18_000, 22_000, 24_000, 26_000, 28_000,
      30_000, 32_000, 34_000, 36_000, 38_000,
    ]);
    expect(report.missed).toEqual({ snapshot: 0, audit: 0 });
  });

  it('never overlaps: a slow audit makes the snapshot ticks it spans missed (logged, skipped), the latest runs late', async () => {
    const clock = manualClock();
    const { steps, events, report } = await run({
      clock,
      until: 30_000,
      audit: () => ({ ms: 5_500, result: auditReport('passed') }),
    });
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.start).toBeGreaterThanOrEqual(steps[i - 1]!.end);
    // the audit runs 0–5.5 s: of the ticks it spans (2 s, 4 s) the latest runs late at 5.5 s, the 2 s tick is missed
    const snaps = steps.filter((x) => x.kind === 'snapshot').map((x) => x.start - T0);
    expect(snaps.slice(0, 3)).toEqual([5_500, 6_000, 8_000]);
    const missed = events.filter((e) => e.event === 'tick-missed');
    expect(missed[0]).toMatchObject({ kind: 'snapshot', ticks: 1 });
    expect(report.missed.snapshot).toBe(missed.reduce((n, e) => n + (e.ticks as number), 0));
    expect(report.missed.audit).toBe(0);
  });

  it('consecutive faults back off (2 s, 4 s, 8 s …), ticks in the pause are skipped, not missed; a success resets', async () => {
    const clock = manualClock();
    const down = new HttpError('HTTP_CONNECT_FAILED', 'connection refused');
    const { steps, events, report } = await run({
      clock,
      until: 60_000,
      auditEveryMs: 600_000,
      snapshot: (i) => ({ ms: 100, result: i < 4 ? down : snapshotReport() }),
    });
    const starts = steps.map((x) => x.start - T0);
    // audit at 0; snapshot faults at 2 s (pause 2 s → 4.1 s), 4.1 s (pause 4 s → 8.2 s), 8.2 s (8 s → 16.3), 16.3 (16 s)
    expect(starts.slice(0, 6)).toEqual([0, 2_000, 4_100, 8_200, 16_300, 32_400]);
    expect(events.filter((e) => e.event === 'backoff').map((e) => e.pause_ms)).toEqual([
      4_000, 8_000, 16_000,
    ]);
    expect(report.missed).toEqual({ snapshot: 0, audit: 0 });
    expect(report.backoffSkipped).toBeGreaterThan(0);
    // after the success the 2 s grid resumes
    expect(starts[6]! - starts[5]!).toBeLessThanOrEqual(2_000);
  });

  it('a stop during a step lets it finish, then the loop ends (no further step)', async () => {
    const clock = manualClock();
    const { steps, events } = await run({ clock, until: 7_000 });
    const last = steps[steps.length - 1]!;
    expect(last.end - T0).toBeGreaterThanOrEqual(7_000);
    expect(events[events.length - 1]?.event).toBe('watch-stopped');
  });

  it('a store failure ends the watch (a supervisor restarts it); a bug too', async () => {
    const clock = manualClock();
    const { StoreError } = await import('../../src/errors/store.js');
    await expect(
      run({
        clock,
        until: 60_000,
        snapshot: () => ({ ms: 10, result: new StoreError('STORE_WRITE_FAILED', 'disk full') }),
      }),
    ).rejects.toThrow('disk full');
    await expect(
      run({ clock, until: 60_000, snapshot: () => ({ ms: 10, result: new TypeError('bug') }) }),
    ).rejects.toThrow('bug');
  });

  it('the retention policy runs at start and then every hour, between steps', async () => {
    const clock = manualClock();
    const { events } = await run({
      clock,
      until: 2 * 3_600_000 + 1_000,
      everyMs: 60_000,
      auditEveryMs: 600_000,
      retention: { keepRawMs: 7 * 86_400_000, archiveAfterMs: null, everyMs: 3_600_000 },
    });
    const at = events.filter((e) => e.event === 'retention');
    expect(at).toHaveLength(3);
    expect(at[0]).toMatchObject({ raw_snapshots_pruned: 0 });
    expect(at[0]).not.toHaveProperty('observations_archived');
  });
});

describe('alerts', () => {
  it('one firing when an error finding appears, none while it stays, one resolved when the audit passes again', async () => {
    const clock = manualClock();
    const outcomes = ['passed', 'failed', 'failed', 'could-not-check', 'failed', 'passed', 'passed'] as const;
    const { alerts } = await run({
      clock,
      until: 7 * 20_000 - 1,
      audit: (i) => {
        const o = outcomes[i] ?? 'passed';
        return {
          ms: 500,
          result: auditReport(
            o,
            o === 'failed' ? [tamperFinding] : o === 'could-not-check' ? [fetchFailed] : [],
          ),
        };
      },
    });
    expect(alerts.map((a) => `${a.kind} ${a.status}`)).toEqual([
      'audit-failed firing',
      'audit-failed resolved',
    ]);
    expect(alerts[0]).toMatchObject({
      severity: 'critical',
      codes: ['PROOF_FIELD_MISMATCH'],
      pools: ['pool-1'],
      evidence: 'pool-1: PROOF_FIELD_MISMATCH: reserve_a differs from the blob',
    });
  });

  it('could-not-check longer than --stale-after: one warning firing, resolved by the next audit that decides', async () => {
    const clock = manualClock();
    const { alerts } = await run({
      clock,
      until: 200_000,
      auditEveryMs: 20_000,
      staleAfterMs: 45_000,
      audit: (i) => ({
        ms: 500,
        result: i >= 1 && i <= 5 ? auditReport('could-not-check', [fetchFailed]) : auditReport('passed'),
      }),
    });
    expect(alerts.map((a) => `${a.kind} ${a.status} ${a.severity}`)).toEqual([
      'audit-stale firing warning',
      'audit-stale resolved warning',
    ]);
    expect(alerts[0]?.codes).toEqual(['FETCH_FAILED']);
  });

  it('a restart on a mirror whose last audit failed does not fire again', async () => {
    await mirror.recordAuditRun({
      snapshotId: null,
      baseUrl: 'http://exchange.test/v1/public',
      startedAtMs: T0 - 1000,
      finishedAtMs: T0 - 500,
      outcome: 'failed',
      checks: [],
      findings: [tamperFinding],
      summary: {},
    });
    const clock = manualClock();
    const { alerts } = await run({
      clock,
      until: 30_000,
      audit: (i) => ({
        ms: 500,
        result: i === 0 ? auditReport('failed', [tamperFinding]) : auditReport('passed'),
      }),
    });
    expect(alerts.map((a) => `${a.kind} ${a.status}`)).toEqual(['audit-failed resolved']);
  });
});
