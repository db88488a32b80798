/**
 * Output of `snapshot`: one JSON line per snapshot on stdout (data), and the human progress lines
 * for stderr: the summary of a recorded snapshot and the sections that could not be fetched.
 */
import { formatApiTimestamp } from '../../core/wire/index.js';
import type { SnapshotReport } from '../../run/snapshot.js';

/** The stdout line of one snapshot (stable field names). */
export function formatSnapshotJsonLine(rec: SnapshotReport): string {
  return `${JSON.stringify({
    snapshot: rec.snapshotId,
    startedAt: formatApiTimestamp(rec.startedAtMs),
    pools: rec.pools,
    newContracts: rec.newContracts.length,
    verified: rec.verified,
    mismatch: rec.mismatch,
    couldNotCheck: rec.couldNotCheck,
    requests: rec.requests,
    failedSections: rec.failedSections.map((f) => f.section),
  })}\n`;
}

/** `snapshot 1/3: #7, 5 pools, 2 new contracts (2 verified, …), 9 requests in 0.4 s` */
export function formatSnapshotSummary(label: string, rec: SnapshotReport, elapsedMs: number): string {
  return (
    `${label}: #${rec.snapshotId}, ${rec.pools} pools, ${rec.newContracts.length} new contracts ` +
    `(${rec.verified} verified, ${rec.mismatch} mismatch, ${rec.couldNotCheck} could not check), ` +
    `${rec.requests} requests in ${(elapsedMs / 1000).toFixed(1)} s`
  );
}

/** One `could not fetch <section>` line per failed section. */
export function formatFailedSections(label: string, rec: SnapshotReport): string[] {
  return rec.failedSections.map((f) => `${label}: could not fetch ${f.section}: ${f.code}: ${f.reason}`);
}
