/**
 * The retention policy of `watch` (applyRetention in src/run/mirror.ts, applied by src/run/watch.ts at start and
 * then every `everyMs`): real snapshots of the reference server into a real SQLite mirror, then the
 * watch restarted on it with its clock 8 days on (the raw responses go) and 31 days on (the
 * contracts and observations older than 30 days move into the archive, each pool's latest kept).
 * Audit history and the snapshots themselves stay.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MirrorStore, openMirrorStore } from '../../src/io/store/index.js';
import type { WatchEvent } from '../../src/run/watch.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';
import { runWatchSteps } from './helpers.js';

const DAY = 86_400_000;

let s: AuditServer;
let mirror: MirrorStore;
let path: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'watch-retention' });
  path = join(mkdtempSync(join(tmpdir(), 'watch-retention-')), 'm.db');
  mirror = await openMirrorStore(path);
}, 30_000);
afterAll(async () => {
  await mirror?.close();
  await s?.close();
});

/** A watch on the mirror whose clock starts at `startMs`; stopped after `steps` steps (0: only the start). */
const watchOnce = (startMs: number, steps: number): Promise<WatchEvent[]> =>
  runWatchSteps({ base: s.base, mirror, mirrorPath: path, startMs, steps });

describe('watch retention', () => {
  it('keeps the raw responses 7 days and archives after 30, at start and hourly', async () => {
    const now = Date.now();
    const first = await watchOnce(now, 3);
    // at start on an empty mirror: nothing to do
    expect(first.find((e) => e.event === 'retention')).toMatchObject({ raw_snapshots_pruned: 0 });
    const before = await mirror.readMirrorStats();
    expect(before.snapshots).toBe(3);
    expect(before.snapshotsWithRaw).toBe(3);
    const runs = (await mirror.readAuditRuns()).length;

    // 8 days on: the raw responses of those snapshots go, nothing is archived yet
    const later = await watchOnce(now + 8 * DAY, 0);
    expect(later.find((e) => e.event === 'retention')).toMatchObject({
      raw_snapshots_pruned: 3,
      observations_archived: 0,
    });
    const pruned = await mirror.readMirrorStats();
    expect(pruned.snapshotsWithRaw).toBe(0);
    expect(pruned.snapshots).toBe(3);

    // 31 days on: the observations but each pool's latest move into the archive
    const month = await watchOnce(now + 31 * DAY, 0);
    const r = month.find((e) => e.event === 'retention');
    expect(r?.observations_archived).toBe(before.observations - before.pools);
    const archived = await mirror.readMirrorStats();
    expect(archived.observations).toBe(before.observations);
    expect(archived.tables.find((x) => x.name === 'observations')?.rows).toBe(before.pools);
    expect((await mirror.readAuditRuns()).length).toBe(runs);
  }, 60_000);
});
