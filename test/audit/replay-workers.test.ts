/**
 * Parallel replay (src/run/replay-pool.ts, src/run/replay-worker.ts): with worker threads the report
 * is exactly the in-process one (same findings, same checks in the same order), tampered contracts
 * are caught by the workers, and worker failures (start-up, a bad batch) surface as ReplayError
 * REPLAY_WORKER_FAILED instead of being lost. Workers always run compiled with plain node: here
 * from dist/run/ (built once by the suite's globalSetup), never through a TypeScript loader.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { stringifyJson } from '../../src/cli/render/style.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/audit/index.js';
import { iterateContractBatches, iterateContractKeyRanges, openMirror } from '../../src/io/store/index.js';
import { chooseReplayJobs, type ReplayReport, runReplay } from '../../src/run/replay.js';
import { locateReplayWorker, startReplayPool } from '../../src/run/replay-pool.js';

import { runCliForTest } from '../helpers/run-cli.js';
import { buildReplayMirror } from './replay-mirror.js';

let dir: string;
let path: string;
const N = 300;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-replay-workers-'));
  path = join(dir, 'm.sqlite');
  buildReplayMirror(path, N, 100, 'replay-workers');
  // tamper: one stored reserve changed, one blob truncated, one blob byte flipped
  const db = new Database(path);
  const ids = db
    .prepare('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id')
    .pluck()
    .all();
  db.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[10]);
  db.prepare('UPDATE contracts SET blob = substr(blob, 1, 20), blob_dict = NULL WHERE contract_id = ?').run(
    ids[150],
  );
  const blob = db.prepare('SELECT blob FROM contracts WHERE contract_id = ?').pluck().get(ids[299]) as Buffer;
  blob[blob.length - 40] = (blob[blob.length - 40] ?? 0) ^ 1;
  db.prepare('UPDATE contracts SET blob = ?, blob_dict = NULL WHERE contract_id = ?').run(blob, ids[299]);
  db.close();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A summary without its timings and thread choices (what differs between --jobs values). */
function withoutThreads(summary: ReplayReport['summary']): unknown {
  const { durationMs, contractsPerSecond, phasesMs, jobs, readerThread, ...rest } = summary;
  return rest;
}

describe('replay with worker threads', () => {
  it('replay --jobs 2 (workers) reports exactly what jobs=1 (in-process) does, tampering included', async () => {
    const one = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, jobs: 1, exitCodeOf });
    expect(one.summary).toMatchObject({ jobs: 1, contracts: N, verified: N - 3, outcome: 'failed' });
    expect(one.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['PROOF_BLOB_MALFORMED', 'PROOF_FIELD_MISMATCH']),
    );
    expect(one.checks.filter((c) => c.name === 'replay.contract' && c.status !== 'pass')).toHaveLength(3);
    const r = await runCliForTest(['replay', '--mirror', path, '--jobs', '2', '--json']);
    expect(r.code).toBe(1);
    const two = JSON.parse(r.stdout) as {
      summary: ReplayReport['summary'];
      findings: unknown;
      checks: unknown;
    };
    expect(two.summary.jobs).toBe(2);
    // with workers the observations are read on the reader thread meanwhile
    expect(two.summary.readerThread).toBe(true);
    expect(withoutThreads(two.summary)).toEqual(withoutThreads(one.summary));
    expect(two.findings).toEqual(JSON.parse(stringifyJson(one.findings)));
    expect(two.checks).toEqual(JSON.parse(stringifyJson(one.checks.filter((c) => c.status !== 'pass'))));
  }, 60_000);

  it('small batches: the main thread verifies while the workers are busy; the report is the in-process one', async () => {
    const one = await runReplay({
      mirrorPath: path,
      profile: DEFAULT_RESERVE_PROFILE,
      jobs: 1,
      batchSize: 8,
    });
    for (const jobs of [2, 3]) {
      const by = { main: 0, worker: 0, reader: 0 };
      const many = await runReplay({
        mirrorPath: path,
        profile: DEFAULT_RESERVE_PROFILE,
        jobs,
        batchSize: 8,
        onBatch: (t, n) => {
          by[t] += n;
        },
      });
      expect(by.main + by.worker).toBe(N);
      expect(by.worker).toBeGreaterThan(0);
      expect(by.main).toBeGreaterThan(0);
      expect(many.summary.jobs).toBe(jobs);
      expect(many.summary.readerThread).toBe(true);
      expect(withoutThreads(many.summary)).toEqual(withoutThreads(one.summary));
      expect(many.findings).toEqual(one.findings);
      expect(many.checks).toEqual(one.checks);
    }
  }, 60_000);

  it('with workers, observations read on the reader thread or here give the same report, period included', async () => {
    const db = new Database(path, { readonly: true });
    const [lo, hi] = db
      .prepare('SELECT min(observed_at_ms), max(observed_at_ms) FROM observations')
      .raw(true)
      .get() as [number, number];
    db.close();
    // the whole mirror, and its middle half (observations by time, contracts by ledger time)
    const quarter = Math.floor((hi - lo) / 4);
    for (const range of [{}, { fromMs: lo + quarter, toMs: hi - quarter }]) {
      const base = { mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, jobs: 2, batchSize: 32, ...range };
      const here = await runReplay({ ...base, readerThread: false });
      const beside = await runReplay(base);
      expect(here.summary.readerThread).toBe(false);
      expect(beside.summary.readerThread).toBe(true);
      expect(beside.summary.observations).toBe(here.summary.observations);
      expect(beside.summary.observations).toBeGreaterThan(0);
      expect(beside.summary.contracts).toBe(here.summary.contracts);
      expect(beside.findings).toEqual(here.findings);
      expect(beside.checks).toEqual(here.checks);
    }
  }, 60_000);

  it('the pool runs the compiled worker of dist/run even when it runs from src/run', () => {
    const url = locateReplayWorker();
    expect(url.pathname.endsWith('/dist/run/replay-worker.js')).toBe(true);
  });

  it('--jobs must be auto or an integer from 1 to 256 (exit 2)', async () => {
    for (const v of ['0', 'abc', '2.5', '257']) {
      const bad = await runCliForTest(['replay', '--mirror', path, '--jobs', v]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('"--jobs" expected "auto" or an integer from 1 to 256');
    }
  });

  it('--jobs auto (the default): no workers for a small mirror or < 3 cores, one per 20,000 contracts up to cores − 1', async () => {
    const r = await runCliForTest(['replay', '--mirror', path, '--json', '--jobs', 'auto']);
    expect((JSON.parse(r.stdout) as { summary: { jobs: number } }).summary.jobs).toBe(1);
    const d = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE });
    expect(d.summary.jobs).toBe(1);
    expect(chooseReplayJobs(39_999, 8)).toBe(1);
    expect(chooseReplayJobs(1_000_000, 1)).toBe(1);
    expect(chooseReplayJobs(1_000_000, 2)).toBe(1);
    expect(chooseReplayJobs(40_000, 8)).toBe(2);
    expect(chooseReplayJobs(100_000, 3)).toBe(2);
    expect(chooseReplayJobs(100_000, 8)).toBe(5);
    expect(chooseReplayJobs(10_000_000, 8)).toBe(7);
  });

  it('a worker reads a key range from the mirror itself: the same contracts and results as the batch', async () => {
    const m = openMirror(path, { readonly: true });
    const pool = await startReplayPool(1, {
      typeFiles: [],
      dars: [],
      cwd: undefined,
      profile: DEFAULT_RESERVE_PROFILE,
      mirrorPath: path,
    });
    try {
      const ranges = [...iterateContractKeyRanges(m, {}, 128)];
      expect(ranges.reduce((n, x) => n + x.count, 0)).toBe(N);
      const batches = [...iterateContractBatches(m, {}, 128)];
      expect(ranges).toHaveLength(batches.length);
      for (const [i, keys] of ranges.entries()) {
        const b = batches[i];
        if (b === undefined) throw new Error('missing batch');
        const got = await pool.verifyRange(keys);
        expect(got.contractIds).toEqual(b.contractIds);
        expect(got.poolIds).toEqual(b.poolIds);
        expect(got.results).toEqual(await pool.verify(b));
      }
    } finally {
      await pool.close();
      m.close();
    }
  });

  it('a worker that cannot start is reported as REPLAY_WORKER_FAILED', async () => {
    await expect(
      startReplayPool(1, {
        typeFiles: [join(dir, 'missing-types.json')],
        dars: [],
        cwd: dir,
        profile: DEFAULT_RESERVE_PROFILE,
      }),
    ).rejects.toMatchObject({ code: 'REPLAY_WORKER_FAILED' });
  }, 30_000);

  it('a batch a worker throws on is rejected with REPLAY_WORKER_FAILED; the pool still closes', async () => {
    const pool = await startReplayPool(1, {
      typeFiles: [],
      dars: [],
      cwd: undefined,
      profile: DEFAULT_RESERVE_PROFILE,
    });
    try {
      const m = openMirror(path, { readonly: true });
      const [b, b2] = [...iterateContractBatches(m, {}, 4)].slice(0, 2);
      m.close();
      if (b === undefined || b2 === undefined) throw new Error('no batch');
      const good = await pool.verify(b);
      expect(good).toHaveLength(4);
      expect(good.every((r) => r.findings.length === 0 && r.proven !== null)).toBe(true);
      // the first batch's blobs now belong to the worker: it cannot be sent twice
      await expect(pool.verify(b)).rejects.toMatchObject({ code: 'REPLAY_WORKER_FAILED' });
      const broken = { ...b2, contractIds: null } as never;
      await expect(pool.verify(broken)).rejects.toMatchObject({
        code: 'REPLAY_WORKER_FAILED',
        message: expect.stringContaining('failed on a batch: TypeError'),
      });
      // the worker survives a bad batch
      const m2 = openMirror(path, { readonly: true });
      const [b3] = [...iterateContractBatches(m2, {}, 3)].slice(0, 1);
      m2.close();
      if (b3 === undefined) throw new Error('no batch');
      expect(await pool.verify(b3)).toHaveLength(3);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
