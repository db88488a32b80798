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
 * Options: BENCH_POOLS (default 1000), BENCH_CONTRACTS (default 100000), BENCH_REPLAY_RUNS (replay
 * runs over the same mirror, default 3), BENCH_MIRROR (reuse/keep a mirror file),
 * BENCH_SERIES (snapshot counts, default "10,100,1000"; "" skips the series), BENCH_SKIP_AUDIT,
 * BENCH_SKIP_REPLAY.
 * 4. the PostgreSQL mirror (./pg-mirror.ts): ingest and replay rates vs SQLite on the same data, and
 *    distributed replay with 1, 2 and 4 worker processes (BENCH_PG_CONTRACTS, BENCH_PG_WORKERS, BENCH_SKIP_PG).
 * Replay verifies in one thread (its worker threads and reader thread were removed: docs/bench/audit.md,
 * "Removed: replay workers and the reader thread"); it also prints its process CPU time and contracts
 * per CPU-second: on a machine shared with other jobs that is what one free core would give.
 * Distributed replay's worker processes run the built CLI: the npm script builds dist first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/proof/index.js';
import { loadTypesOrDefault } from '../src/io/files/default-types.js';
import { openMirror, pruneRawResponses, readMirrorStats, vacuumMirror } from '../src/io/store/index.js';
import { wrapSqliteMirror } from '../src/io/store/sqlite-store.js';
import { runAudit } from '../src/run/audit.js';
import { runReplay } from '../src/run/replay.js';
import { takeSnapshot } from '../src/run/snapshot.js';
import { createSeededRng } from '../src/sim/rng.js';
import { simulateRandomSwap } from '../src/sim/traffic.js';
import { buildReplayMirror } from '../test/audit/replay-mirror.js';
import { startAuditServer } from '../test/helpers/tamper.js';
import { benchPostgres } from './pg-mirror.js';

/**
 * The auditor's own work is measured, so its pacing is off (`maxRps` Infinity, 12 in flight as the
 * order books were fetched before pacing): at the default pace (50 requests a second) an audit of
 * N pools takes at least its request count ÷ 50 s — a politeness, not a cost of the auditor.
 */
const UNPACED = { maxRps: Number.POSITIVE_INFINITY, maxInFlight: 12 } as const;

const POOLS = Number(process.env.BENCH_POOLS ?? 1000);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100_000);

async function benchAudit(): Promise<void> {
  const s = await startAuditServer({ version: 'v12', extraPools: Math.max(0, POOLS - 8), seed: 'bench' });
  try {
    const pools = s.ex.pools().filter((p) => p.active).length;
    for (const label of ['cold', 'warm', 'warm']) {
      const t = performance.now();
      const r = await runAudit({ baseUrl: s.directBase, ...UNPACED });
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
  const runs = Math.max(1, Number(process.env.BENCH_REPLAY_RUNS ?? 3));
  for (let i = 1; i <= runs; i++) await replayOnce(path, i);
  if (process.env.BENCH_KEEP === '1' || process.env.BENCH_MIRROR !== undefined) console.log(`kept ${path}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function replayOnce(path: string, run: number): Promise<void> {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await runReplay({
    mirrorPath: path,
    profile: DEFAULT_RESERVE_PROFILE,
    progressEvery: Number(process.env.BENCH_EVERY ?? 25_000),
    onProgress: (n, rate) => console.log(`  replayed ${n} (${Math.round(rate)}/s)`),
  });
  const s = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(
    `replay run ${run}: ${r.summary.contracts} contracts (verified ${r.summary.verified}), ${r.summary.observations} observations, outcome ${r.summary.outcome}, ${s.toFixed(2)} s wall, ${r.summary.contractsPerSecond} contracts/s (whole run); phases ${JSON.stringify(r.summary.phasesMs)} ms; contract phase ${Math.round(r.summary.contracts / (r.summary.phasesMs.contracts / 1000))} contracts/s; process CPU ${cpuS.toFixed(2)} s = ${Math.round(r.summary.contracts / cpuS)} contracts per CPU-second; load average ${loadavg()[0]?.toFixed(2)} at ${new Date().toISOString().slice(11, 19)} UTC`,
  );
}

const SERIES = (process.env.BENCH_SERIES ?? '10,100,1000')
  .split(',')
  .filter((x) => x !== '')
  .map(Number);
const SERIES_POOLS = Number(process.env.BENCH_SERIES_POOLS ?? 200);
const SWAPS_PER_MIN = Number(process.env.BENCH_SWAPS_PER_MIN ?? 600);
/** audits per point on each mirror (the empty one and the series one), interleaved; medians compared */
const SERIES_AUDITS = Math.max(1, Number(process.env.BENCH_SERIES_AUDITS ?? 5));
/** print the per-snapshot cost of building the mirror every this many snapshots */
const SERIES_EVERY = Math.max(1, Number(process.env.BENCH_SERIES_EVERY ?? 100));

type AuditPhases = NonNullable<Awaited<ReturnType<typeof runAudit>>['summary']['phasesMs']>;
type AuditRun = { ms: number; phases: AuditPhases };

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const fmtMs = (x: number): string => x.toFixed(0);
const phaseNames = ['fetch', 'verify', 'history', 'checks', 'record'] as const;
const medianPhases = (runs: readonly AuditRun[]): string =>
  phaseNames.map((k) => `${k} ${fmtMs(median(runs.map((r) => r.phases[k])))}`).join(' / ');

/** Where building the mirror spends its time, per snapshot (the series' cost, not its measured quantity). */
class BuildClock {
  n = 0;
  traffic = 0;
  fetch = 0;
  verify = 0;
  record = 0;
  line(total: number): string {
    const per = (x: number): string => fmtMs(x / Math.max(1, this.n));
    return `${this.n} snapshots, per snapshot: traffic ${per(this.traffic)} ms, fetch ${per(this.fetch)} ms, verify ${per(this.verify)} ms, record ${per(this.record)} ms (${total} recorded so far)`;
  }
}

/**
 * Audit time with a mirror of N snapshots ÷ with an empty one, and the mirror's bytes per pool per
 * snapshot. The mirror is built back to back (traffic, then a snapshot; no sleeps) against the
 * in-process server; at each point SERIES_AUDITS audits on a fresh empty mirror are interleaved with
 * SERIES_AUDITS on the series mirror under the same traffic, every one printed, medians compared.
 */
async function benchSeries(): Promise<void> {
  const s = await startAuditServer({
    version: 'v12',
    extraPools: Math.max(0, SERIES_POOLS - 8),
    seed: 'series',
  });
  const dir = mkdtempSync(join(tmpdir(), 'audit-series-'));
  const rng = createSeededRng('series-traffic');
  const types = await loadTypesOrDefault({});
  const build = new BuildClock();
  try {
    const pools = s.ex.pools().filter((p) => p.active).length;
    const traffic = (): void => {
      // 30 s of traffic, then past the server's response caches
      const t = performance.now();
      for (let i = 0; i < SWAPS_PER_MIN / 2; i++) simulateRandomSwap(s.ex, rng);
      s.clock.advanceMs(30_000);
      build.traffic += performance.now() - t;
    };
    const auditOnce = async (path: string): Promise<AuditRun> => {
      const t = performance.now();
      const r = await runAudit({ baseUrl: s.directBase, mirrorPath: path, ...UNPACED });
      const ms = performance.now() - t;
      const p = r.summary.phasesMs;
      return { ms, phases: p ?? { fetch: 0, verify: 0, history: 0, checks: 0, record: 0 } };
    };
    // warm-up (server caches, JIT)
    for (let i = 0; i < 2; i++) {
      traffic();
      await auditOnce(join(dir, `warm-${i}.db`));
    }
    console.log(
      `series: ${pools} pools, ${SWAPS_PER_MIN} swaps/min, ${SERIES_AUDITS} audits per point on each mirror (load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')})`,
    );
    const path = join(dir, 'series.db');
    let recorded = 0;
    let emptyN = 0;
    const t0 = performance.now();
    for (const n of SERIES) {
      const mirror = openMirror(path);
      try {
        const store = wrapSqliteMirror(mirror);
        // time the record step (the rest of takeSnapshot is fetch, then verify)
        const timed = new Proxy(store, {
          get(target, key, receiver) {
            const v = Reflect.get(target, key, receiver);
            if (key !== 'recordSnapshot' || typeof v !== 'function') return v;
            return async (...args: unknown[]) => {
              const t = performance.now();
              try {
                return await v.apply(target, args);
              } finally {
                build.record += performance.now() - t;
              }
            };
          },
        });
        while (recorded < n) {
          traffic();
          const t = performance.now();
          let fetched = t;
          await takeSnapshot({
            mirror: timed,
            baseUrl: s.directBase,
            ...UNPACED,
            types,
            onProgress: (p) => {
              if (p.step === 'verifying contracts') fetched = performance.now();
            },
          });
          const end = performance.now();
          build.n += 1;
          build.fetch += fetched - t;
          build.verify += end - fetched;
          recorded += 1;
          if (build.n % SERIES_EVERY === 0) {
            build.verify -= build.record; // the record step ran inside "verify" above
            console.log(`series: building: ${build.line(recorded)}; load ${loadavg()[0]?.toFixed(2)}`);
            Object.assign(build, { n: 0, traffic: 0, fetch: 0, verify: 0, record: 0 });
          }
        }
      } finally {
        mirror.close();
      }
      const runs: AuditRun[] = [];
      const empties: AuditRun[] = [];
      for (let i = 0; i < SERIES_AUDITS; i++) {
        traffic();
        empties.push(await auditOnce(join(dir, `empty-${emptyN++}.db`)));
        traffic();
        runs.push(await auditOnce(path));
        recorded += 1; // the audit recorded its snapshot
      }
      const mid = median(runs.map((r) => r.ms));
      const empty = median(empties.map((r) => r.ms));
      const local = (r: AuditRun): number => r.ms - r.phases.fetch;
      const localRatio = median(runs.map(local)) / Math.max(1e-9, median(empties.map(local)));
      const m = openMirror(path);
      const st = readMirrorStats(m);
      m.close();
      const list = (xs: readonly AuditRun[]): string => xs.map((r) => fmtMs(r.ms)).join(', ');
      console.log(
        `series: ${n} snapshots (${st.snapshots} recorded, ${((performance.now() - t0) / 1000).toFixed(0)} s so far, ${new Date().toISOString()}, load ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')})`,
      );
      console.log(
        `  audits with the series mirror: ${list(runs)} ms; median ${fmtMs(mid)} ms; median phases ${medianPhases(runs)} ms`,
      );
      console.log(
        `  audits with an empty mirror:   ${list(empties)} ms; median ${fmtMs(empty)} ms; median phases ${medianPhases(empties)} ms`,
      );
      console.log(
        `  ratio ${(mid / empty).toFixed(2)} (goal ≤ 1.2 at 1,000); without the fetch phase (the server's response time, which the mirror does not change) ${fmtMs(median(runs.map(local)))} vs ${fmtMs(median(empties.map(local)))} ms: ratio ${localRatio.toFixed(2)}; mirror ${st.fileBytes} bytes = ${Math.round(st.fileBytes / (pools * st.snapshots))} bytes per pool per snapshot with every raw response kept`,
      );
    }
    if (SERIES.length > 0) {
      const m = openMirror(path);
      try {
        const p = pruneRawResponses(m, Number.MAX_SAFE_INTEGER);
        vacuumMirror(m);
        const st = readMirrorStats(m);
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
