/**
 * Machine output of `audit --json`: one JSON document {summary, pools, findings, checks} — for a
 * completed audit, and for one that could not run (./audit-failure.ts), so CI always gets one.
 */
import type { AuditReport } from '../../run/audit.js';
import type { AuditFailure } from './audit-failure.js';
import { stringifyJson } from './style.js';

/**
 * Keys kept for one version beside their replacements, with what to read instead
 * (docs/findings.md "Assurance levels"): "proven" said more than a recomputed contract ID proves.
 */
const DEPRECATED_KEYS = {
  'summary.proofsProven': 'summary.proofsIdVerified (and summary.assurance)',
  'pools[].proof': 'pools[].assurance',
} as const;

/** The --json document: {summary, pools, findings, checks, deprecated}. */
export function formatAuditJson(r: AuditReport): string {
  return `${stringifyJson({
    summary: r.summary,
    pools: r.pools,
    findings: r.findings,
    checks: r.checks,
    deprecated: DEPRECATED_KEYS,
  })}\n`;
}

/**
 * The --json document of an audit that did not complete: the same shape, with
 * `summary: {outcome: could-not-check | internal-error, exitCode: 2 | 3, baseUrl, at, reason: {code,
 * message}}` and no pools, findings or checks.
 */
export function formatAuditFailureJson(f: AuditFailure): string {
  const summary = {
    outcome: f.outcome,
    exitCode: f.exitCode,
    baseUrl: f.baseUrl,
    at: f.at,
    reason: f.reason,
  };
  return `${stringifyJson({ summary, pools: [], findings: [], checks: [] })}\n`;
}
