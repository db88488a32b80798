/**
 * Output of `snapshot`: one JSON line per snapshot on stdout (data), and the human progress lines
 * for stderr: the summary of a recorded snapshot and the sections that could not be fetched.
 */
import { formatApiTimestamp } from '../../core/wire/index.js';
import type { RetentionReport } from '../../run/mirror.js';
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
    failedAttempt: rec.failedAttempt?.reason ?? null,
  })}\n`;
}

/** `snapshot 1/3: #7, 5 pools, 2 new contracts (2 verified, …), 9 requests in 0.4 s` */
export function formatSnapshotSummary(label: string, rec: SnapshotReport, elapsedMs: number): string {
  const requests = `${rec.requests} requests in ${(elapsedMs / 1000).toFixed(1)} s`;
  if (rec.failedAttempt !== null)
    return `${label}: kept as failed attempt #${rec.failedAttempt.id}, not as history: ${rec.failedAttempt.reason}; ${requests}`;
  return (
    `${label}: #${rec.snapshotId}, ${rec.pools} pools, ${rec.newContracts.length} new contracts ` +
    `(${rec.verified} verified, ${rec.mismatch} mismatch, ${rec.couldNotCheck} could not check), ${requests}`
  );
}

/** One `could not fetch <section>` line per failed section. */
export function formatFailedSections(label: string, rec: SnapshotReport): string[] {
  return rec.failedSections.map((f) => `${label}: could not fetch ${f.section}: ${f.code}: ${f.reason}`);
}

/** What a retention pass removed or archived (null when it did nothing and skipped nothing). */
export function formatRetentionLine(label: string, r: RetentionReport): string | null {
  const parts: string[] = [];
  if (r.pruned.responses > 0)
    parts.push(`pruned the raw responses of ${r.pruned.snapshots} snapshots (${r.pruned.bodies} bodies)`);
  if (r.archived !== null && (r.archived.contracts > 0 || r.archived.observations > 0))
    parts.push(`archived ${r.archived.contracts} contracts and ${r.archived.observations} observations`);
  if (r.archiveSkipped !== null) parts.push(`archive skipped: ${r.archiveSkipped}`);
  return parts.length === 0 ? null : `${label}: retention: ${parts.join('; ')}`;
}
