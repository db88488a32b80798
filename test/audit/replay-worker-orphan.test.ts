/**
 * `replay --worker` and a dead coordinator (issue 30 item 4; src/run/replay-distributed.ts,
 * docs/mirror.md "Distributed replay"): a run whose coordinator died stays `open` for ever; a worker
 * used to wait for it for ever. Now a run with every batch done that stays open for the coordinator's
 * lease is abandoned and the worker exits — after finishing the batches the dead coordinator left, and
 * only then. Needs PostgreSQL (skipped, saying why, without it; failing under CI=true).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { openMirrorStore } from '../../src/io/store/index.js';
import { runReplayWorker } from '../../src/run/replay-distributed.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { recordReplaySnapshots } from './replay-mirror.js';

const skip = pgSkipReason();

describe.skipIf(skip !== null)('a worker whose coordinator died (PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase('orphan');
    const m = await openMirrorStore(db.url);
    try {
      await recordReplaySnapshots(m, 1_100, 100, 'orphan');
    } finally {
      await m.close();
    }
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Creates a run as a coordinator would, then "dies": nobody ever finishes the run. */
  async function createOrphanRun(): Promise<{ runId: number; batches: number }> {
    const m = await openMirrorStore(db.url);
    try {
      const q = m.distributed;
      if (q === null) throw new Error('no queue');
      return await q.createReplayRun({
        range: {},
        batchSize: 512,
        leaseMs: 60_000,
        profileJson: JSON.stringify(DEFAULT_RESERVE_PROFILE),
      });
    } finally {
      await m.close();
    }
  }

  async function runStatus(runId: number): Promise<string> {
    const m = await openMirrorStore(db.url);
    try {
      const q = m.distributed;
      if (q === null) throw new Error('no queue');
      return (await q.readReplayRunProgress(runId)).status;
    } finally {
      await m.close();
    }
  }

  it('verifies the batches left, waits the coordinator lease, abandons the run and exits', async () => {
    const run = await createOrphanRun();
    expect(run.batches).toBe(3);
    const t0 = Date.now();
    const w = await runReplayWorker({
      mirrorPath: db.url,
      pollMs: 50,
      coordinatorLeaseMs: 800,
      workerId: 'orphan-worker',
    });
    const ms = Date.now() - t0;
    // (before: the worker never returned — the run stays open with nothing left to claim)
    expect(w).toMatchObject({
      batches: 3,
      contracts: 1_100,
      lost: 0,
      runs: [run.runId],
      abandoned: [run.runId],
    });
    expect(ms).toBeGreaterThanOrEqual(800);
    expect(await runStatus(run.runId)).toBe('abandoned');
  }, 60_000);

  it('replay --worker --lease 1s: the same from the command line, exit 0', async () => {
    const run = await createOrphanRun();
    const r = await runCliForTest(['replay', '--mirror', db.url, '--worker', '--lease', '1s']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { batches: number; abandoned: number[] };
    expect(out.batches).toBe(3);
    expect(out.abandoned).toEqual([run.runId]);
    expect(await runStatus(run.runId)).toBe('abandoned');
  }, 60_000);
});

if (skip !== null)
  describe('a worker whose coordinator died (PostgreSQL)', () => {
    it.skip(skip, () => {});
  });
