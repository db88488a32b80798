/**
 * Audit benchmarks (`npm run bench:audit`; results in docs/bench/audit.md):
 * 1. wall time of `runAudit` against the bundled server with 1,000 pools (cold: the server computes
 *    every response for the first time; warm: its response caches are filled) — goal < 2 s;
 * 2. `replay` throughput over a mirror of ≥ 100,000 stored V12 contracts — goal ≥ 30,000/s.
 * Options: BENCH_POOLS (default 1000), BENCH_CONTRACTS (default 100000), BENCH_JOBS (replay --jobs
 * values to compare, default "1,<available cores>"), BENCH_MIRROR (reuse/keep a mirror file).
 * The replay workers run the compiled dist/run/replay-worker.js: the npm script builds dist first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/audit/index.js';
import { runAudit } from '../src/run/audit.js';
import { defaultReplayJobs, runReplay } from '../src/run/replay.js';
import { buildReplayMirror } from '../test/audit/replay-mirror.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const POOLS = Number(process.env.BENCH_POOLS ?? 1000);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100_000);

async function benchAudit(): Promise<void> {
  const s = await startAuditServer({ version: 'v12', extraPools: Math.max(0, POOLS - 8), seed: 'bench' });
  try {
    const pools = s.ex.pools().filter((p) => p.active).length;
    for (const label of ['cold', 'warm', 'warm']) {
      const t = performance.now();
      const r = await runAudit({ baseUrl: s.directBase });
      const ms = performance.now() - t;
      console.log(
        `audit ${label}: ${pools} pools, outcome ${r.summary.outcome}, ${r.checks.length} checks, ${ms.toFixed(0)} ms wall; phases ${JSON.stringify(r.summary.phasesMs)} ms`,
      );
    }
  } finally {
    await s.close();
  }
}

async function benchReplay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
  const path = process.env.BENCH_MIRROR ?? join(dir, 'mirror.sqlite');
  const t0 = performance.now();
  if (process.env.BENCH_MIRROR === undefined || !existsSync(path)) buildReplayMirror(path, CONTRACTS);
  console.log(`mirror built: ${CONTRACTS} contracts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // BENCH_JOBS: comma-separated --jobs values to compare (default: "1,<available cores>")
  const jobsList = (process.env.BENCH_JOBS ?? `1,${defaultReplayJobs()}`).split(',').map(Number);
  for (const jobs of jobsList) await replayOnce(path, jobs);
  if (process.env.BENCH_KEEP === '1' || process.env.BENCH_MIRROR !== undefined) console.log(`kept ${path}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function replayOnce(path: string, jobs: number): Promise<void> {
  const t = performance.now();
  const r = await runReplay({
    mirrorPath: path,
    jobs,
    profile: DEFAULT_RESERVE_PROFILE,
    progressEvery: Number(process.env.BENCH_EVERY ?? 25_000),
    onProgress: (n, rate) => console.log(`  replayed ${n} (${Math.round(rate)}/s)`),
  });
  const s = (performance.now() - t) / 1000;
  console.log(
    `replay --jobs ${r.summary.jobs}: ${r.summary.contracts} contracts (verified ${r.summary.verified}), ${r.summary.observations} observations, outcome ${r.summary.outcome}, ${s.toFixed(2)} s wall, ${r.summary.contractsPerSecond} contracts/s (whole run); phases ${JSON.stringify(r.summary.phasesMs)} ms; contract phase ${Math.round(r.summary.contracts / (r.summary.phasesMs.contracts / 1000))} contracts/s`,
  );
}

console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
if (process.env.BENCH_SKIP_AUDIT !== '1') await benchAudit();
if (process.env.BENCH_SKIP_REPLAY !== '1') await benchReplay();
