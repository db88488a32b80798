/**
 * The watch loop with its real steps (src/run/watch-steps.ts) on a PostgreSQL mirror (the suite's
 * throw-away cluster): the audit and the snapshots record there, the metrics read its size, the
 * retention policy prunes raw responses and does not archive (PostgreSQL keeps every row), and a
 * restarted watch goes on from the same mirror without doubling anything.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { openMirrorStore } from '../../src/io/store/index.js';
import type { WatchEvent } from '../../src/run/watch.js';
import { createWatchMetrics } from '../../src/run/watch-metrics.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { startAuditServer } from '../helpers/tamper.js';
import { runWatchSteps } from './helpers.js';

const DAY = 86_400_000;

describe('watch on a PostgreSQL mirror', () => {
  it.skipIf(pgSkipReason() !== null)(
    'records audits and snapshots, reads its size, prunes without archiving, restarts without doubling',
    async () => {
      const s = await startAuditServer({ version: 'v12', seed: 'watch-pg' });
      const db = await createTestDatabase('watch');
      const mirror = await openMirrorStore(db.url);
      try {
        const registry = new Registry();
        const metrics = createWatchMetrics(registry);
        const once = (startMs: number, steps: number): Promise<WatchEvent[]> =>
          runWatchSteps({ base: s.base, mirror, mirrorPath: db.url, startMs, steps, metrics });
        const now = Date.now();
        const first = await once(now, 3);
        expect(first.filter((e) => e.event === 'audit').map((e) => e.outcome)).toEqual(['passed']);
        expect(first.filter((e) => e.event === 'snapshot').map((e) => e.result)).toEqual(['ok', 'ok']);
        expect(await mirror.countSnapshots()).toBe(3);
        const bytes = (await registry.getMetricsAsJSON()).find(
          (m) => m.name === 'reserve_audit_mirror_bytes',
        );
        expect(bytes?.values[0]?.value).toBeGreaterThan(0);

        // restarted 8 days later: raw responses pruned, nothing archived, the history goes on
        const later = await once(now + 8 * DAY, 2);
        const r = later.find((e) => e.event === 'retention');
        expect(r).toMatchObject({ raw_snapshots_pruned: 3 });
        expect(r).not.toHaveProperty('observations_archived');
        expect(later.find((e) => e.event === 'watch-started')).toMatchObject({
          last_audit_outcome: 'passed',
        });
        expect(await mirror.countSnapshots()).toBe(5);
        expect((await mirror.readAuditRuns()).length).toBe(2);
      } finally {
        await mirror.close();
        await db.drop();
        await s.close();
      }
    },
    60_000,
  );
});
