/**
 * `mirror stats` shows how fast the mirror grows and where that leads (issue 27 item 4):
 * `computeMirrorGrowth` (src/run/mirror.ts) — the file's bytes over the snapshots' time span, per
 * day, and the size 30 days on at that rate; nothing below two snapshots or an hour of span.
 */
import { describe, expect, it } from 'vitest';
import { formatMirrorStatsText } from '../../src/cli/render/mirror.js';
import type { MirrorStats } from '../../src/io/store/index.js';
import { computeMirrorGrowth } from '../../src/run/mirror.js';

const T = Date.UTC(2026, 10, 26);
const stats = (o: Partial<MirrorStats>): MirrorStats => ({
  path: 'm.db',
  schemaVersion: 11,
  fileBytes: 10 * 1048576,
  freeBytes: 0,
  tables: [],
  snapshots: 2880,
  snapshotsWithRaw: 2880,
  pools: 8,
  contracts: 100,
  observations: 23040,
  firstSnapshotMs: T,
  lastSnapshotMs: T + 86_400_000,
  bytesPerObservation: 455,
  ...o,
});

describe('mirror growth', () => {
  it('10 MiB over one day: 10 MiB/day, 310 MiB in 30 days', () => {
    expect(computeMirrorGrowth(stats({}))).toEqual({
      bytesPerDay: 10 * 1048576,
      projected30DaysBytes: 310 * 1048576,
    });
    expect(formatMirrorStatsText(stats({}))).toContain(
      'growth 10.0 MiB/day over the time span; in 30 days at this rate 310.0 MiB',
    );
  });

  it('nothing to say below two snapshots or an hour of span', () => {
    expect(computeMirrorGrowth(stats({ snapshots: 1 }))).toBeNull();
    expect(computeMirrorGrowth(stats({ lastSnapshotMs: T + 59 * 60_000 }))).toBeNull();
    expect(
      computeMirrorGrowth(stats({ firstSnapshotMs: null, lastSnapshotMs: null, snapshots: 0 })),
    ).toBeNull();
    expect(formatMirrorStatsText(stats({ snapshots: 1 }))).toContain(
      'growth - (needs two snapshots an hour apart or more)',
    );
  });
});
