/** Machine output of `audit --json`: one JSON document {summary, pools, findings, checks}. */
import type { AuditReport } from '../../run/audit.js';
import { stringifyJson } from './style.js';

/** The --json document: {summary, pools, findings, checks}. */
export function formatAuditJson(r: AuditReport): string {
  return `${stringifyJson({ summary: r.summary, pools: r.pools, findings: r.findings, checks: r.checks })}\n`;
}
