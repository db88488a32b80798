/**
 * The alert transitions of `watch` (docs/watch.md "Alerts"), pure: the state before, what just
 * happened (an audit's outcome and findings, or the time passing), the state after and the alerts
 * to send. Two alerts, each with its own life: `audit-failed` (severity critical: an error finding
 * appeared — firing once per incident, resolved when an audit passes again) and `audit-stale`
 * (severity warning: no audit could decide for longer than `staleAfterMs` — firing once, resolved
 * when an audit decides, passed or failed). A could-not-check audit never fires or resolves
 * `audit-failed`: a failed request is not evidence (docs/findings.md).
 */
import type { AuditOutcome, Finding } from '../core/audit/index.js';
import type { AuditRunRow } from '../io/store/index.js';

type WatchAlertKind = 'audit-failed' | 'audit-stale';

export interface WatchAlert {
  readonly kind: WatchAlertKind;
  readonly status: 'firing' | 'resolved';
  readonly severity: 'critical' | 'warning';
  /** the error finding codes (audit-failed) or the could-not-check codes (audit-stale), sorted */
  readonly codes: readonly string[];
  /** the pools the findings name, sorted (at most MAX_ALERT_POOLS) */
  readonly pools: readonly string[];
  /** one line: the first finding's pool, code and message (empty when resolved) */
  readonly evidence: string;
  /** when the incident started, ms since the epoch */
  readonly sinceMs: number;
  readonly atMs: number;
}

export interface WatchAlertState {
  /** the open audit-failed incident, or null */
  readonly failing: { readonly sinceMs: number; readonly codes: readonly string[] } | null;
  /** when the last audit that decided (passed or failed) finished, or the watch started */
  readonly lastDecidedMs: number;
  /** codes of the could-not-check findings of the audits since then (null: none could not check) */
  readonly undecided: readonly string[] | null;
  readonly staleFiring: boolean;
}

/** the most pools one alert names; the rest are counted in the evidence line */
const MAX_ALERT_POOLS = 20;

/**
 * The state a watch starts from: a watch restarted on a mirror whose last audit run (of this base
 * URL) failed is inside that incident already — it was told — so it does not fire it again.
 */
export function computeInitialAlertState(
  startedAtMs: number,
  last: AuditRunRow | null,
  baseUrl: string,
): WatchAlertState {
  const failing =
    last !== null && last.baseUrl === baseUrl && last.outcome === 'failed'
      ? {
          sinceMs: last.finishedAtMs,
          codes: sortedUnique(last.findings.filter((f) => f.severity === 'error').map((f) => f.code)),
        }
      : null;
  return { failing, lastDecidedMs: startedAtMs, undecided: null, staleFiring: false };
}

function sortedUnique(xs: readonly string[]): string[] {
  return [...new Set(xs)].sort();
}

function evidenceLine(findings: readonly Finding[]): string {
  const f = findings[0];
  if (f === undefined) return '';
  const more = findings.length > 1 ? ` (+${findings.length - 1} more)` : '';
  return `${f.pool === null ? '' : `${f.pool}: `}${f.code}: ${f.message}${more}`;
}

/** The state after an audit and the alerts it causes. */
export function computeAuditAlerts(
  s: WatchAlertState,
  audit: { readonly outcome: AuditOutcome; readonly findings: readonly Finding[] },
  nowMs: number,
  staleAfterMs: number,
): { readonly state: WatchAlertState; readonly alerts: readonly WatchAlert[] } {
  const alerts: WatchAlert[] = [];
  if (audit.outcome === 'could-not-check') {
    const codes = audit.findings.filter((f) => f.severity !== 'error').map((f) => f.code);
    return computeStaleAlerts(s, nowMs, staleAfterMs, codes);
  }
  if (s.staleFiring)
    alerts.push({
      kind: 'audit-stale',
      status: 'resolved',
      severity: 'warning',
      codes: s.undecided ?? [],
      pools: [],
      evidence: '',
      sinceMs: s.lastDecidedMs,
      atMs: nowMs,
    });
  let failing = s.failing;
  if (audit.outcome === 'failed') {
    const errors = audit.findings.filter((f) => f.severity === 'error');
    const codes = sortedUnique(errors.map((f) => f.code));
    if (failing === null) {
      const pools = sortedUnique(errors.flatMap((f) => (f.pool === null ? [] : [f.pool])));
      alerts.push({
        kind: 'audit-failed',
        status: 'firing',
        severity: 'critical',
        codes,
        pools: pools.slice(0, MAX_ALERT_POOLS),
        evidence: evidenceLine(errors),
        sinceMs: nowMs,
        atMs: nowMs,
      });
      failing = { sinceMs: nowMs, codes };
    }
  } else if (failing !== null) {
    alerts.push({
      kind: 'audit-failed',
      status: 'resolved',
      severity: 'critical',
      codes: failing.codes,
      pools: [],
      evidence: '',
      sinceMs: failing.sinceMs,
      atMs: nowMs,
    });
    failing = null;
  }
  return {
    state: { failing, lastDecidedMs: nowMs, undecided: null, staleFiring: false },
    alerts,
  };
}

/**
 * The state after time passed, or after a step that could not check (`codes`: why; an audit that
 * threw, a snapshot that failed): `audit-stale` fires once when no audit decided for longer than
 * `staleAfterMs` and something could not check since.
 */
export function computeStaleAlerts(
  before: WatchAlertState,
  nowMs: number,
  staleAfterMs: number,
  codes: readonly string[] | null = null,
): { readonly state: WatchAlertState; readonly alerts: readonly WatchAlert[] } {
  const s =
    codes === null ? before : { ...before, undecided: sortedUnique([...(before.undecided ?? []), ...codes]) };
  if (s.staleFiring || s.undecided === null) return { state: s, alerts: [] };
  if (nowMs - s.lastDecidedMs <= staleAfterMs) return { state: s, alerts: [] };
  return {
    state: { ...s, staleFiring: true },
    alerts: [
      {
        kind: 'audit-stale',
        status: 'firing',
        severity: 'warning',
        codes: s.undecided,
        pools: [],
        evidence: `no audit could decide since ${new Date(s.lastDecidedMs).toISOString()}`,
        sinceMs: s.lastDecidedMs,
        atMs: nowMs,
      },
    ],
  };
}
