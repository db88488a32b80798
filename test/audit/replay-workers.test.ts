/**
 * Parallel replay (src/io/replay-pool.ts, src/io/replay-worker.ts): with worker threads the report
 * is exactly the in-process one (same findings, same checks in the same order), tampered contracts
 * are caught by the workers, and worker failures (start-up, a bad batch) surface as ReplayError
 * REPLAY_WORKER_FAILED instead of being lost. Workers run from the TypeScript sources here (tsx).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/audit/index.js';
import { type ReplayReport, runReplay } from '../../src/io/audit-replay.js';
import { startReplayPool } from '../../src/io/replay-pool.js';
import { iterateContractBatches, openMirror } from '../../src/io/store/index.js';
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
  const ids = db.prepare('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id').pluck().all();
  db.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[10]);
  db.prepare('UPDATE contracts SET blob = substr(blob, 1, 20) WHERE contract_id = ?').run(ids[150]);
  const blob = db.prepare('SELECT blob FROM contracts WHERE contract_id = ?').pluck().get(ids[299]) as Buffer;
  blob[blob.length - 40] = (blob[blob.length - 40] ?? 0) ^ 1;
  db.prepare('UPDATE contracts SET blob = ? WHERE contract_id = ?').run(blob, ids[299]);
  db.close();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stable = (r: ReplayReport) => {
  const { durationMs, contractsPerSecond, phasesMs, jobs, ...summary } = r.summary;
  return { summary, findings: r.findings, checks: r.checks };
};

describe('replay with worker threads', () => {
  it('jobs=2 gives exactly the in-process report, tampering included', async () => {
    const one = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, jobs: 1 });
    const two = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, jobs: 2 });
    expect(one.summary.jobs).toBe(1);
    expect(two.summary.jobs).toBe(2);
    expect(stable(two)).toEqual(stable(one));
    expect(one.summary).toMatchObject({ contracts: N, verified: N - 3, outcome: 'failed' });
    expect(one.findings.map((f) => f.code).sort()).toEqual(
      expect.arrayContaining(['PROOF_BLOB_MALFORMED', 'PROOF_FIELD_MISMATCH']),
    );
    expect(one.checks.filter((c) => c.name === 'replay.contract' && c.status !== 'pass')).toHaveLength(3);
  }, 60_000);

  it('the CLI takes --jobs and refuses a bad value (exit 2)', async () => {
    const r = await runCliForTest(['replay', '--mirror', path, '--jobs', '2', '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { summary: { jobs: number; contracts: number } }).summary).toMatchObject({
      jobs: 2,
      contracts: N,
    });
    const bad = await runCliForTest(['replay', '--mirror', path, '--jobs', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"--jobs" expected an integer from 1 to 256');
  }, 60_000);

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
    const pool = await startReplayPool(1, { typeFiles: [], dars: [], cwd: undefined, profile: DEFAULT_RESERVE_PROFILE });
    try {
      const m = openMirror(path, { readonly: true });
      const [b] = [...iterateContractBatches(m, {}, 4)].slice(0, 1);
      m.close();
      if (b === undefined) throw new Error('no batch');
      const good = await pool.verify(b);
      expect(good).toHaveLength(4);
      const broken = { ...b, contractIds: null } as never;
      await expect(pool.verify(broken)).rejects.toMatchObject({ code: 'REPLAY_WORKER_FAILED' });
    } finally {
      await pool.close();
    }
  }, 30_000);
});
