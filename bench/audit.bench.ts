/**
 * Audit benchmarks (`npm run bench:audit`; results in docs/bench/audit.md):
 * 1. wall time of `runAudit` against the bundled server with 1,000 pools (cold: the server computes
 *    every response for the first time; warm: its response caches are filled) — goal < 2 s;
 * 2. `replay` throughput over a mirror of ≥ 100,000 stored V12 contracts — goal ≥ 30,000/s;
 * 3. the history series (issue 11): audit time with a mirror of 10 / 100 / 1,000 snapshots ÷ audit
 *    time with an empty mirror, on BENCH_SERIES_POOLS (200) pools under traffic (BENCH_SWAPS_PER_MIN,
 *    600, with the server's clock advanced 30 s between snapshots) — goal ≤ 1.2 at 1,000; and the
 *    mirror's bytes per pool per snapshot (goal ≤ 1,200), with all raw responses kept and after
 *    `mirror prune --keep-raw 0` (the long-run rate with a retention window). It also prints the
 *    ratio without the fetch phase (the server's response time, which the mirror does not change
 *    and which dominates the noise on a loaded machine).
 * Options: BENCH_POOLS (default 1000), BENCH_CONTRACTS (default 100000), BENCH_JOBS (replay --jobs
 * values to compare, default "auto,1,<available cores>"), BENCH_MIRROR (reuse/keep a mirror file),
 * BENCH_SERIES (snapshot counts, default "10,100,1000"; "" skips the series), BENCH_SKIP_AUDIT,
 * BENCH_SKIP_REPLAY.
 * 4. the PostgreSQL mirror (./pg-mirror.ts): ingest and replay rates vs SQLite on the same data, and
 *    distributed replay with 1, 2 and 4 worker processes (BENCH_PG_CONTRACTS, BENCH_PG_WORKERS, BENCH_SKIP_PG).
 * Replay also prints its process CPU time (all threads) and contracts per CPU-second: on a machine
 * shared with other jobs that is what one free core would give (jobs 1).
 * The replay workers run the compiled dist/run/replay-worker.js: the npm script builds dist first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/audit/index.js';
import { loadTypesOrDefault } from '../src/io/files/default-types.js';
import {
  computeMirrorStats,
  openMirror,
  pruneRawResponses,
  vacuumMirror,
  wrapSqliteMirror,
} from '../src/io/store/index.js';
import { runAudit } from '../src/run/audit.js';
import { defaultReplayJobs, runReplay } from '../src/run/replay.js';
import { takeSnapshot } from '../src/run/snapshot.js';
import { createSeededRng } from '../src/sim/rng.js';
import { simulateRandomSwap } from '../src/sim/traffic.js';
import { buildReplayMirror } from '../test/audit/replay-mirror.js';
import { startAuditServer } from '../test/helpers/tamper.js';
import { benchPostgres } from './pg-mirror.js';

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
  const jobsList = (process.env.BENCH_JOBS ?? `auto,1,${defaultReplayJobs()}`)
    .split(',')
    .map((j) => (j === 'auto' ? 'auto' : Number(j)));
  for (const jobs of jobsList) await replayOnce(path, jobs);
  if (process.env.BENCH_KEEP === '1' || process.env.BENCH_MIRROR !== undefined) console.log(`kept ${path}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function replayOnce(path: string, jobs: number | 'auto'): Promise<void> {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await runReplay({
    mirrorPath: path,
    jobs,
    profile: DEFAULT_RESERVE_PROFILE,
    progressEvery: Number(process.env.BENCH_EVERY ?? 25_000),
    onProgress: (n, rate) => console.log(`  replayed ${n} (${Math.round(rate)}/s)`),
  });
  const s = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(
    `replay --jobs ${jobs} (${r.summary.jobs} thread(s)): ${r.summary.contracts} contracts (verified ${r.summary.verified}), ${r.summary.observations} observations, outcome ${r.summary.outcome}, ${s.toFixed(2)} s wall, ${r.summary.contractsPerSecond} contracts/s (whole run); phases ${JSON.stringify(r.summary.phasesMs)} ms; contract phase ${Math.round(r.summary.contracts / (r.summary.phasesMs.contracts / 1000))} contracts/s; process CPU ${cpuS.toFixed(2)} s (all threads) = ${Math.round(r.summary.contracts / cpuS)} contracts per CPU-second`,
  );
}

const SERIES = (process.env.BENCH_SERIES ?? '10,100,1000')
  .split(',')
  .filter((x) => x !== '')
  .map(Number);
const SERIES_POOLS = Number(process.env.BENCH_SERIES_POOLS ?? 200);
const SWAPS_PER_MIN = Number(process.env.BENCH_SWAPS_PER_MIN ?? 600);

/** Audit time with a mirror of N snapshots ÷ with an empty one, and the mirror's bytes per pool per snapshot. */
async function benchSeries(): Promise<void> {
  const s = await startAuditServer({
    version: 'v12',
    extraPools: Math.max(0, SERIES_POOLS - 8),
    seed: 'series',
  });
  const dir = mkdtempSync(join(tmpdir(), 'audit-series-'));
  const rng = createSeededRng('series-traffic');
  const types = await loadTypesOrDefault({});
  try {
    const pools = s.ex.pools().filter((p) => p.active).length;
    const traffic = (): void => {
      // 30 s of traffic, then past the server's response caches
      for (let i = 0; i < SWAPS_PER_MIN / 2; i++) simulateRandomSwap(s.ex, rng);
      s.clock.advanceMs(30_000);
    };
    type Run = { ms: number; history: number; local: number; phases: string };
    const auditOnce = async (path: string): Promise<Run> => {
      const t = performance.now();
      const r = await runAudit({ baseUrl: s.directBase, mirrorPath: path });
      const ms = performance.now() - t;
      return {
        ms,
        history: r.summary.phasesMs?.history ?? 0,
        // everything but fetching from the server: the part of the audit the mirror can change
        local: ms - (r.summary.phasesMs?.fetch ?? 0),
        phases: JSON.stringify(r.summary.phasesMs),
      };
    };
    // warm-up (server caches, JIT), then per point: 3 audits on a fresh empty mirror interleaved
    // with 3 audits on the series mirror (same conditions), medians compared
    for (let i = 0; i < 2; i++) {
      traffic();
      await auditOnce(join(dir, `warm-${i}.db`));
    }
    console.log(`series: ${pools} pools, ${SWAPS_PER_MIN} swaps/min`);
    const path = join(dir, 'series.db');
    let recorded = 0;
    let emptyN = 0;
    const t0 = performance.now();
    for (const n of SERIES) {
      const mirror = openMirror(path);
      try {
        while (recorded < n) {
          traffic();
          await takeSnapshot({ mirror: wrapSqliteMirror(mirror), baseUrl: s.directBase, types });
          recorded += 1;
        }
      } finally {
        mirror.close();
      }
      const runs: Run[] = [];
      const empties: Run[] = [];
      for (let i = 0; i < 3; i++) {
        traffic();
        empties.push(await auditOnce(join(dir, `empty-${emptyN++}.db`)));
        traffic();
        runs.push(await auditOnce(path));
        recorded += 1; // the audit recorded its snapshot
      }
      const median = (xs: Run[]) =>
        xs.sort((a, b) => a.ms - b.ms)[1] ?? { ms: 0, history: 0, local: 0, phases: '' };
      const mid = median(runs);
      const empty = median(empties);
      const localMedian = (xs: Run[]) => xs.map((x) => x.local).sort((a, b) => a - b)[1] ?? 0;
      const localRatio = localMedian(runs) / Math.max(1e-9, localMedian(empties));
      const m = openMirror(path);
      const st = computeMirrorStats(m);
      m.close();
      console.log(
        `series: ${n} snapshots (${st.snapshots} recorded, ${((performance.now() - t0) / 1000).toFixed(0)} s so far): audit ${mid.ms.toFixed(0)} ms (phases ${mid.phases}) vs empty mirror ${empty.ms.toFixed(0)} ms (phases ${empty.phases}): ratio ${(mid.ms / empty.ms).toFixed(2)} (goal ≤ 1.2 at 1,000); without the fetch phase (server time, noise under load) ${localMedian(runs).toFixed(0)} vs ${localMedian(empties).toFixed(0)} ms: ratio ${localRatio.toFixed(2)}; mirror ${st.fileBytes} bytes = ${Math.round(st.fileBytes / (pools * st.snapshots))} bytes per pool per snapshot with every raw response kept`,
      );
    }
    if (SERIES.length > 0) {
      const m = openMirror(path);
      try {
        const p = pruneRawResponses(m, Number.MAX_SAFE_INTEGER);
        vacuumMirror(m);
        const st = computeMirrorStats(m);
        console.log(
          `series: after mirror prune --keep-raw 0 (${p.bodies} bodies, ${p.bodyBytes} body bytes removed): ${st.fileBytes} bytes = ${Math.round(st.fileBytes / (pools * st.snapshots))} bytes per pool per snapshot (goal ≤ 1,200); by table ${JSON.stringify(Object.fromEntries(st.tables.map((t) => [t.name, t.bytes])))}`,
        );
      } finally {
        m.close();
      }
    }
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
if (SERIES.length > 0) await benchSeries();
if (process.env.BENCH_SKIP_AUDIT !== '1') await benchAudit();
if (process.env.BENCH_SKIP_REPLAY !== '1') await benchReplay();
if (process.env.BENCH_SKIP_PG !== '1') await benchPostgres();
