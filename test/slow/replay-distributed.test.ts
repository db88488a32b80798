/**
 * Distributed replay on a shared PostgreSQL mirror (src/run/replay-distributed.ts, docs/mirror.md
 * "Distributed replay") — the "done when": two watchers recording into one database and
 * three `replay --worker` processes give the same replay report as a single-process replay of a
 * SQLite mirror holding the same snapshots. Also: tampered contracts are caught by the workers, and
 * a worker that dies holding a claim (its lease left to expire) does not lose the batch. In the slow
 * suite: each test spawns a fleet of CLI processes (some 9 s and 3 s); that --run / --worker are
 * refused on a SQLite mirror is tested in test/audit/replay-distributed.test.ts. Needs PostgreSQL (skipped, saying why, without
 * it; failing under CI=true). Worker processes run the built CLI (bin/ → dist/, built by globalSetup).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { fetchSnapshot } from '../../src/io/http/index.js';
import { type MirrorStore, openMirrorStore } from '../../src/io/store/index.js';
import { type ReplayReport, runReplay } from '../../src/run/replay.js';
import { runReplayWorker } from '../../src/run/replay-distributed.js';
import { computeContractVerifications, verifySnapshotContracts } from '../../src/run/snapshot.js';
import { recordReplaySnapshots } from '../audit/replay-mirror.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

const BIN = fileURLToPath(new URL('../../bin/reserve-audit.js', import.meta.url));
const skip = pgSkipReason();

/** The report without what differs between any two runs (time, throughput, workers, mirror name). */
function comparable(r: ReplayReport): unknown {
  const { durationMs, contractsPerSecond, phasesMs, jobs, mirror, ...summary } = r.summary;
  return { summary, findings: r.findings, checks: r.checks };
}

/** Spawns `replay --worker` processes; resolves with their JSON reports when they exit. */
function spawnWorkers(
  url: string,
  n: number,
): { procs: ChildProcess[]; done: Promise<{ batches: number }[]> } {
  const procs: ChildProcess[] = [];
  const done = Array.from({ length: n }, () => {
    const p = spawn(process.execPath, [BIN, 'replay', '--mirror', url, '--worker', '--wait', '5s'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(p);
    let out = '';
    let err = '';
    p.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    p.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    return new Promise<{ batches: number }>((resolve, reject) => {
      p.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(out) as { batches: number })
          : reject(new Error(`worker exit ${code}: ${err}`)),
      );
    });
  });
  return { procs, done: Promise.all(done) };
}

describe.skipIf(skip !== null)('distributed replay (PostgreSQL)', () => {
  let dir: string;
  let db: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ra-replay-dist-'));
    db = await createTestDatabase('replay');
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two watchers + three workers on one database = single-process replay of SQLite with the same snapshots', async () => {
    const server: ReferenceServer = await startReferenceServer();
    const sqlitePath = join(dir, 'same.db');
    const sqlite = await openMirrorStore(sqlitePath);
    const w1 = await openMirrorStore(db.url);
    const w2 = await openMirrorStore(db.url);
    try {
      const record = async (m: MirrorStore, s: Awaited<ReturnType<typeof fetchSnapshot>>): Promise<void> => {
        const proofs = await verifySnapshotContracts(m, s);
        await m.recordSnapshot(s, computeContractVerifications(proofs));
      };
      for (let round = 0; round < 4; round++) {
        // the two watchers fetch and record at the same time (the second 5 ms later: distinct start times)
        const [a, b] = await Promise.all([
          fetchSnapshot({ baseUrl: server.base }),
          new Promise((r) => setTimeout(r, 5)).then(() => fetchSnapshot({ baseUrl: server.base })),
        ]);
        await Promise.all([record(w1, a), record(w2, b)]);
        for (const s of [a, b].sort((x, y) => x.startedAtMs - y.startedAtMs)) await record(sqlite, s);
        server.exchange.transfer({
          sender: 'alice::1220aa',
          instrument: server.exchange.cc(),
          amount: '100',
          memo: 'USDCx',
        });
        server.clock.advanceMs(120_000);
      }
      expect(await w1.countSnapshots()).toBe(8);
    } finally {
      await Promise.all([w1.close(), w2.close(), sqlite.close(), server.close()]);
    }
    const single = await runReplay({ mirrorPath: sqlitePath, profile: DEFAULT_RESERVE_PROFILE });
    expect(single.summary.contracts).toBeGreaterThan(8);
    const workers = spawnWorkers(db.url, 3);
    try {
      const dist = await runReplay({
        mirrorPath: db.url,
        profile: DEFAULT_RESERVE_PROFILE,
        distributed: { work: false, pollMs: 50 },
      });
      expect(comparable(dist)).toEqual(comparable(single));
      expect(dist.summary.jobs).toBeGreaterThanOrEqual(1);
      const reports = await workers.done;
      expect(reports.reduce((s, r) => s + r.batches, 0)).toBe(1);
    } finally {
      for (const p of workers.procs) p.kill('SIGKILL');
    }
  }, 120_000);

  it('tampered contracts are caught by the workers; a worker that dies holding a claim loses nothing', async () => {
    const big = await createTestDatabase('replaybig');
    const sqlitePath = join(dir, 'big.db');
    try {
      for (const target of [sqlitePath, big.url]) {
        const m = await openMirrorStore(target);
        try {
          await recordReplaySnapshots(m, 2_100, 300, 'distributed');
        } finally {
          await m.close();
        }
      }
      // the same tampering in both: one stored reserve changed, one blob truncated
      const c = new pg.Client({ connectionString: big.url });
      await c.connect();
      const ids = (
        await c.query('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id')
      ).rows.map((r: { contract_id: string }) => r.contract_id);
      await c.query("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = $1", [ids[10]]);
      await c.query(
        'UPDATE contracts SET blob = substring(blob from 1 for 20), blob_dict = NULL WHERE contract_id = $1',
        [ids[1500]],
      );
      await c.end();
      const { default: Database } = await import('better-sqlite3');
      const s = new Database(sqlitePath);
      s.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[10]);
      s.prepare(
        'UPDATE contracts SET blob = substr(blob, 1, 20), blob_dict = NULL WHERE contract_id = ?',
      ).run(ids[1500]);
      s.close();

      const single = await runReplay({ mirrorPath: sqlitePath, profile: DEFAULT_RESERVE_PROFILE });
      expect(single.summary).toMatchObject({
        contracts: 2_100,
        verified: 2_098,
        outcome: 'failed',
      });

      // a "dead" worker claims the first batch of the run and never reports; its lease (1 s) expires
      const coordinator = runReplay({
        mirrorPath: big.url,
        profile: DEFAULT_RESERVE_PROFILE,
        distributed: { work: false, leaseMs: 1_000, pollMs: 50 },
      });
      const ghost = await openMirrorStore(big.url);
      let claimed = false;
      try {
        const q = ghost.distributed;
        if (q === null) throw new Error('no queue');
        for (let i = 0; i < 200 && !claimed; i++) {
          const [run] = await q.readOpenReplayRuns();
          if (run !== undefined) claimed = (await q.claimReplayBatch('ghost', run)) !== null;
          else await new Promise((r) => setTimeout(r, 25));
        }
      } finally {
        await ghost.close();
      }
      expect(claimed).toBe(true);
      // one worker in this process does the rest, the ghost's batch included once its lease expired
      const w = await runReplayWorker({ mirrorPath: big.url, pollMs: 50, workerId: 'test-worker' });
      const dist = await coordinator;
      expect(w.batches).toBe(Math.ceil(2_100 / 512));
      expect(comparable(dist)).toEqual(comparable(single));
    } finally {
      await big.drop();
    }
  }, 120_000);
});

if (skip !== null)
  describe('distributed replay (PostgreSQL)', () => {
    it.skip(skip, () => {});
  });
