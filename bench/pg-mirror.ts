/**
 * The PostgreSQL mirror benchmark (part of `npm run bench:audit`; results in docs/bench/audit.md):
 * on the same synthetic snapshots of real v12 reserve contracts (test/audit/replay-mirror.ts),
 * 1. snapshot ingest: snapshots and contracts recorded per second into SQLite vs PostgreSQL;
 * 2. replay: contracts re-verified per second, single process, SQLite vs PostgreSQL;
 * 3. distributed replay on PostgreSQL with 1, 2 and 4 `replay --worker` processes (the coordinator
 *    only coordinates), as ratios to 1 worker, in the same run.
 * PostgreSQL is a throw-away cluster (test/helpers/pg-cluster.ts: initdb + pg_ctl, fsync off — the
 * numbers are the client's and the server's CPU, not a disk's). Options: BENCH_PG_CONTRACTS
 * (default 20,000), BENCH_PG_WORKERS (default "1,2,4"), BENCH_SKIP_PG=1.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/proof/index.js';
import { openMirrorStore } from '../src/io/store/index.js';
import { runReplay } from '../src/run/replay.js';
import { computeReplaySnapshots } from '../test/audit/replay-mirror.js';
import { findPgBinaries, startPgCluster } from '../test/helpers/pg-cluster.js';

const BIN = fileURLToPath(new URL('../bin/reserve-audit.js', import.meta.url));
const CONTRACTS = Number(process.env.BENCH_PG_CONTRACTS ?? 20_000);
const PER_SNAPSHOT = 200;
const WORKERS = (process.env.BENCH_PG_WORKERS ?? '1,2,4').split(',').map(Number);

async function createDatabase(base: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

function startWorker(url: string): Promise<void> {
  const p = spawn(process.execPath, [BIN, 'replay', '--mirror', url, '--worker', '--wait', '30s'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  p.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) =>
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`worker exit ${code}: ${err.slice(-500)}`)),
    ),
  );
}

export async function benchPostgres(): Promise<void> {
  const bins = findPgBinaries();
  if ('missing' in bins) {
    console.log(`postgres: skipped: ${bins.missing}`);
    return;
  }
  const cluster = await startPgCluster(bins);
  const dir = mkdtempSync(join(tmpdir(), 'pg-bench-'));
  try {
    const snapshots = [...computeReplaySnapshots(CONTRACTS, PER_SNAPSHOT, 'pg-bench')];
    const targets = {
      sqlite: join(dir, 'mirror.db'),
      postgres: await createDatabase(cluster.url, 'bench_mirror'),
    };
    const ingest: Record<string, number> = {};
    for (const [name, target] of Object.entries(targets)) {
      const m = await openMirrorStore(target);
      const t = performance.now();
      for (const s of snapshots) await m.recordSnapshot(s);
      const sec = (performance.now() - t) / 1000;
      await m.close();
      ingest[name] = CONTRACTS / sec;
      console.log(
        `postgres: ingest ${name}: ${snapshots.length} snapshots × ${PER_SNAPSHOT} pools in ${sec.toFixed(2)} s = ${(snapshots.length / sec).toFixed(1)} snapshots/s, ${Math.round(CONTRACTS / sec)} contracts/s`,
      );
    }
    console.log(
      `postgres: ingest ratio postgres/sqlite = ${((ingest.postgres ?? 0) / (ingest.sqlite ?? 1)).toFixed(2)}`,
    );
    const replay: Record<string, number> = {};
    for (const [name, target] of Object.entries(targets)) {
      const r = await runReplay({ mirrorPath: target, profile: DEFAULT_RESERVE_PROFILE });
      replay[name] = r.summary.contractsPerSecond;
      console.log(
        `postgres: replay ${name} (1 process, in-process): ${r.summary.contracts} contracts, ${r.summary.outcome}, ${r.summary.contractsPerSecond} contracts/s; phases ${JSON.stringify(r.summary.phasesMs)} ms`,
      );
    }
    console.log(
      `postgres: replay ratio postgres/sqlite = ${((replay.postgres ?? 0) / (replay.sqlite ?? 1)).toFixed(2)}`,
    );
    let base: number | null = null;
    for (const n of WORKERS) {
      const workers = Array.from({ length: n }, () => startWorker(targets.postgres));
      // let the workers load their type environment before the run exists, as long-running workers would
      await new Promise((r) => setTimeout(r, 1_500));
      const r = await runReplay({
        mirrorPath: targets.postgres,
        profile: DEFAULT_RESERVE_PROFILE,
        distributed: { work: false, pollMs: 20 },
      });
      await Promise.all(workers);
      const rate = r.summary.contractsPerSecond;
      base ??= rate;
      console.log(
        `postgres: distributed replay, ${n} worker process(es): ${r.summary.contracts} contracts, ${r.summary.outcome}, ${rate} contracts/s (${r.summary.jobs} did batches), ${(rate / base).toFixed(2)}× of 1 worker; phases ${JSON.stringify(r.summary.phasesMs)} ms`,
      );
    }
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
