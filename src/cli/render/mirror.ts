/** `mirror stats`, `mirror prune` and `mirror follow` output: a short text table, or JSON. */
import type { MirrorStats } from '../../io/store/index.js';
import { computeMirrorGrowth, type MirrorPruneReport } from '../../run/mirror.js';
import type { FollowRound, MirrorFollowReport } from '../../run/mirror-follow.js';

const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;
const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());
const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MiB`;

export function formatMirrorStatsText(s: MirrorStats): string {
  const growth = computeMirrorGrowth(s);
  const lines = [
    `mirror ${s.path} (schema ${s.schemaVersion}): ${kib(s.fileBytes)} (${kib(s.freeBytes)} free)`,
    `snapshots ${s.snapshots} (raw responses kept for ${s.snapshotsWithRaw})  pools ${s.pools}  contracts ${s.contracts}  observations ${s.observations}`,
    `time span ${iso(s.firstSnapshotMs)} … ${iso(s.lastSnapshotMs)}`,
    `bytes per pool per snapshot ${s.bytesPerObservation ?? '-'}`,
    growth === null
      ? 'growth: - (the snapshots span less than an hour)'
      : `growth: ${mib(growth.bytesPerDay)} per day since the first snapshot; in 30 days at this rate, with nothing pruned: ${mib(growth.projected30dBytes)}`,
    `failed attempts (not history) ${s.failedAttempts}`,
    'table           rows        size',
  ];
  for (const t of s.tables)
    lines.push(`${t.name.padEnd(15)} ${String(t.rows).padStart(8)} ${kib(t.bytes).padStart(14)}`);
  return `${lines.join('\n')}\n`;
}

export function formatMirrorPruneText(r: MirrorPruneReport): string {
  const p = r.pruned;
  const lines = [
    `pruned raw responses before ${iso(r.cutoffMs)}: ${p.snapshots} snapshots, ${p.responses} responses, ${p.bodies} bodies (${kib(p.bodyBytes)})`,
    ...(r.archived === null
      ? []
      : [
          `archived before ${iso(r.archived.cutoffMs)}: ${r.archived.contracts} contracts in ${r.archived.contractChunks} chunks, ${r.archived.observations} observations in ${r.archived.observationChunks} chunks`,
        ]),
    r.vacuum === null
      ? 'not vacuumed (--no-vacuum)'
      : `vacuumed: ${kib(r.vacuum.beforeBytes)} → ${kib(r.vacuum.afterBytes)}`,
  ];
  return `${lines.join('\n')}\n${formatMirrorStatsText(r.stats)}`;
}

/** One `mirror follow` round as a line (and its findings, one a line). */
export function formatFollowRoundText(r: FollowRound): string {
  const lines = [
    `follow  offset ${r.fromOffset} → ${r.toOffset} (ledger end ${r.ledgerEnd ?? '-'})  transactions ${r.transactions}  events +${r.inserted}  ledger time ${iso(r.ledgerTimeMs)}  pools checked ${r.poolsChecked}  findings ${r.findings.length}`,
  ];
  for (const f of r.findings) lines.push(`  ${f.severity.toUpperCase()} ${f.code}: ${f.message}`);
  if (r.couldNotCheck !== null) lines.push(`  could not check: ${r.couldNotCheck}`);
  return `${lines.join('\n')}\n`;
}

/** The end of `mirror follow`. */
export function formatFollowReportText(r: MirrorFollowReport): string {
  const errors = r.findings.filter((f) => f.severity === 'error').length;
  return `${r.outcome.toUpperCase()}  followed ${r.participant} as ${r.party} to offset ${r.offset} in ${r.rounds} round(s); chain errors ${errors}\n`;
}
