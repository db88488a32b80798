/**
 * One line on what the auditor did on the wire (AuditSummary.requests, src/io/http/client.ts), for
 * the text and HTML reports: how many attempts, how many were retries and why, how long it waited.
 * A retried request is not a finding: the line says how the verdict was reached, not what it is.
 */
import type { RequestCounts } from '../../io/http/index.js';

/** e.g. `requests 57 sent: 6 retried after a transport failure (4 throttled by 429), 0 given up; waited 4.2 s` */
export function formatRequestCountsLine(c: RequestCounts): string {
  const waited = `${(c.waitedMs / 1000).toFixed(1)} s`;
  if (c.retried === 0 && c.exhausted === 0) return `requests ${c.sent} sent, none retried`;
  return `requests ${c.sent} sent: ${c.retried} retried after a transport failure (${c.throttled} throttled by 429), ${c.exhausted} given up; waited ${waited}`;
}
