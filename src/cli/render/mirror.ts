/** `mirror stats` and `mirror prune` output: a short text table, or JSON. */
import type { MirrorStats } from '../../io/store/index.js';
import { computeMirrorGrowth, type MirrorPruneReport } from '../../run/mirror.js';

const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;
const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

const mib = (b: number): string => `${(b / 1048576).toFixed(1)} MiB`;

/** `growth 12.3 MiB/day over the time span; in 30 days at this rate 380.0 MiB`, or why not. */
function formatGrowth(s: MirrorStats): string {
  const g = computeMirrorGrowth(s);
  return g === null
    ? 'growth - (needs two snapshots an hour apart or more)'
    : `growth ${mib(g.bytesPerDay)}/day over the time span; in 30 days at this rate ${mib(g.projected30DaysBytes)}`;
}

export function formatMirrorStatsText(s: MirrorStats): string {
  const lines = [
    `mirror ${s.path} (schema ${s.schemaVersion}): ${kib(s.fileBytes)} (${kib(s.freeBytes)} free)`,
    `snapshots ${s.snapshots} (raw responses kept for ${s.snapshotsWithRaw})  pools ${s.pools}  contracts ${s.contracts}  observations ${s.observations}`,
    `time span ${iso(s.firstSnapshotMs)} … ${iso(s.lastSnapshotMs)}`,
    `bytes per pool per snapshot ${s.bytesPerObservation ?? '-'}`,
    formatGrowth(s),
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
