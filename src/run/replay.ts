/**
 * The `replay` pipeline (the issue "replay"): re-verify every reserve contract stored in the
 * mirror once per contract ID with the one proof step (./replay-contract.ts: decode → type → hash
 * → compare → reserves via the profile, then the recorded values against the blob's), in this
 * thread (reading the mirror here, or on a reader thread that also verifies the batches it reads
 * while this one is behind, ./replay-read-thread.ts) or on worker
 * threads (./replay-pool.ts), then re-run the history checks over the recorded period
 * (./replay-series.ts) → a report. Pure checks from src/core/audit; the mirror is read through the
 * store's functions; never an exit code, never stdout.
 */
import { availableParallelism, type CpuInfo, cpus } from 'node:os';
import {
  AuditCollector,
  type AuditOutcome,
  type AuditResult,
  checkHistorySeries,
  computeAuditExitCode,
  computeAuditOutcome,
  type ReserveProfile,
} from '../core/audit/index.js';
import { AuditError } from '../errors/audit.js';
import { ReplayError } from '../errors/replay.js';
import { loadTypesOrDefault } from '../io/files/default-types.js';
import { type ContractKeyRange, type MirrorStore, openMirrorStore } from '../io/store/index.js';
import { formatMirrorTarget } from './history.js';
import { type ReplayedContractResult, replayContractBatch, unpackReplayResults } from './replay-contract.js';
import { type CoordinateReplayOptions, coordinateReplayRun } from './replay-distributed.js';
import { type RangeResults, type ReplayPool, startReplayPool } from './replay-pool.js';
import {
  locateReplayReader,
  type ReaderVerifies,
  type ReplayReader,
  startReplayReader,
} from './replay-read-thread.js';
import { loadObservationSeries, type ReplayedContracts } from './replay-series.js';

/** Contracts per batch handed to a worker (large enough to amortise messaging, small for latency). */
const BATCH_SIZE = 512;
/**
 * `--jobs auto`: contracts each worker must have for workers to pay off. A worker costs ~0.3 s to
 * start (its own type environment, its own connection) and the main thread still runs the history
 * checks; one thread verifies ~15,000 contracts/s (docs/bench/audit.md), so below ~20,000
 * contracts per worker the in-process path is as fast or faster.
 */
const CONTRACTS_PER_WORKER = 20_000;

/**
 * `--jobs auto` verifying in this thread: contracts from which the mirror is read on a reader thread
 * (./replay-reader.ts) while this one verifies. Measured over 100,000 contracts (docs/bench/audit.md,
 * "Reading by contract key; a reader thread"): this thread's CPU falls from 3.4–4.3 s to 2.6–2.7 s
 * and the reader takes 2.4–2.6 s, so with a free second core the run takes the longer of the two;
 * with every core busy (load average 6–8 on 2 cores) the extra thread only competes and was slower.
 * On a quiet machine (2026-11-23 18:29 UTC) it gave 23,800–39,100/s against 21,300–27,900/s.
 */
const READER_MIN_CONTRACTS = 20_000;

/**
 * `--jobs auto` with one verifying thread: read on a reader thread when the mirror is large and the
 * machine has room for two busy threads right now (`idleCores`, from sampleIdleCores: at least 1.5
 * cores idle while this process waited).
 */
export function chooseReplayReader(contracts: number, cores: number, idleCores: number): boolean {
  return cores >= 2 && contracts >= READER_MIN_CONTRACTS && idleCores >= 1.5;
}

/**
 * How many cores were idle over the next `ms` milliseconds (this process idles meanwhile), from the
 * kernel's per-core time counters; capped by the cores this process may use. The 1-minute load
 * average, used before, still counts work that ended a minute ago (a `snapshot` run, the bench's own
 * mirror build) and kept `auto` on one thread on a machine that was free again.
 */
export async function sampleIdleCores(ms = 100): Promise<number> {
  const total = (c: CpuInfo): number =>
    c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
  const before = cpus();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpus();
  let idle = 0;
  let all = 0;
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    idle += after[i]!.times.idle - before[i]!.times.idle;
    all += total(after[i]!) - total(before[i]!);
  }
  const usable = defaultReplayJobs();
  return all <= 0 ? usable : Math.min(usable, (idle / all) * after.length);
}

export function defaultReplayJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * `--jobs auto`: 1 (in-process, no workers) for small mirrors or fewer than 3 cores; else one
 * verifying thread per CONTRACTS_PER_WORKER contracts, at most cores − 1 (the main thread, which
 * verifies batches only while every worker is busy, also scans keys, orders results and runs the
 * history checks). On 2 cores a worker was slower than the in-process path in every measured run
 * (docs/bench/audit.md): the machine's other load takes the second core.
 */
export function chooseReplayJobs(contracts: number, cores: number = defaultReplayJobs()): number {
  if (cores < 3 || contracts < 2 * CONTRACTS_PER_WORKER) return 1;
  return Math.max(2, Math.min(cores - 1, Math.floor(contracts / CONTRACTS_PER_WORKER)));
}

export interface ReplayOptions {
  readonly mirrorPath: string;
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly profile: ReserveProfile;
  readonly typeFiles?: readonly string[];
  readonly dars?: readonly string[];
  readonly cwd?: string;
  /** called every `progressEvery` contracts and at the end */
  readonly onProgress?: (done: number, perSecond: number) => void;
  readonly progressEvery?: number;
  readonly now?: () => number;
  /**
   * verifying threads: 'auto' (the default) picks from the work (chooseReplayJobs: no workers for
   * small mirrors); 1 = verify in this thread only; n > 1 = this thread and n − 1 workers, used as is.
   */
  readonly jobs?: number | 'auto';
  /**
   * with one verifying thread: read the mirror on a reader thread (./replay-reader.ts) — true / false,
   * or chosen by chooseReplayReader when `jobs` is 'auto' and this is not given. With workers the
   * reader thread reads only the observations, beside the workers (unless false; when built)
   */
  readonly readerThread?: boolean;
  /**
   * with a reader thread: which batches it verifies itself (default 'when-ahead': those it reads
   * while READ_AHEAD batches already wait here, so that neither thread idles; ./replay-read-thread.ts)
   */
  readonly readerVerifies?: ReaderVerifies;
  /** contracts per batch (default 512) */
  readonly batchSize?: number;
  /** called for every verified batch with the thread that verified it (instrumentation, tests) */
  readonly onBatch?: (thread: 'main' | 'worker' | 'reader', contracts: number) => void;
  /**
   * @deprecated `summary.exitCode` is always filled from the one outcome → exit-code table
   * (`computeAuditExitCode`); a map given here still replaces it
   */
  readonly exitCodeOf?: (outcome: AuditOutcome) => number;
  /**
   * distributed replay (PostgreSQL mirror, ./replay-distributed.ts): this process coordinates a
   * run that `replay --worker` processes share; `jobs` is then ignored
   */
  readonly distributed?: Pick<CoordinateReplayOptions, 'work' | 'leaseMs' | 'pollMs' | 'onWaiting'>;
}

export interface ReplaySummary {
  readonly outcome: AuditResult['outcome'];
  /** the process exit code of `outcome`: 0 passed, 1 failed, 2 could not check (`computeAuditExitCode`) */
  readonly exitCode: number;
  readonly mirror: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly contracts: number;
  readonly verified: number;
  readonly mismatch: number;
  readonly couldNotCheck: number;
  readonly pools: number;
  readonly observations: number;
  readonly durationMs: number;
  /** verification threads used (1 = in-process); distributed: the processes that verified batches */
  readonly jobs: number;
  /** the mirror was read on a reader thread while this one verified (`--jobs auto`, ./replay-reader.ts) */
  readonly readerThread: boolean;
  /** contracts per second over the whole run (setup, contracts, history) */
  readonly contractsPerSecond: number;
  readonly phasesMs: {
    readonly setup: number;
    readonly contracts: number;
    readonly historyLoad: number;
    readonly historyChecks: number;
  };
}

export interface ReplayReport {
  readonly summary: ReplaySummary;
  readonly findings: AuditResult['findings'];
  readonly checks: AuditResult['checks'];
}

/** the largest |ms| a Date holds (ECMA-262: ±8.64e15) */
const MAX_DATE_MS = 8.64e15;

/** A period bound is an integer time a Date can hold (the summary prints it as one). */
function assertReplayTime(name: 'fromMs' | 'toMs', ms: number | undefined): void {
  if (ms === undefined || (Number.isInteger(ms) && Math.abs(ms) <= MAX_DATE_MS)) return;
  throw new AuditError(
    'AUDIT_OPTION_INVALID',
    `"${name}" expected an integer time in ms within ±8.64e15 (the Date range), got ${String(ms)}`,
  );
}

/** Re-verifies the mirror's contracts and re-runs the history checks. */
export async function runReplay(o: ReplayOptions): Promise<ReplayReport> {
  assertReplayTime('fromMs', o.fromMs);
  assertReplayTime('toMs', o.toMs);
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  const types = await loadTypesOrDefault(o);
  let mirror: MirrorStore;
  try {
    mirror = await openMirrorStore(o.mirrorPath, { readonly: o.distributed === undefined });
  } catch (e) {
    throw new AuditError(
      'MIRROR_UNAVAILABLE',
      `"--mirror" expected an existing mirror file, got ${formatMirrorTarget(o.mirrorPath)}`,
      { cause: e },
    );
  }
  const tSetup = now();
  let jobs = 1;
  let pool: ReplayPool | null = null;
  let reader: ReplayReader | null = null;
  const replayed: ReplayedContracts = { byKey: new Map(), byId: new Map() };
  const c = new AuditCollector();
  let n = 0;
  let verified = 0;
  let mismatch = 0;
  let unverifiable = 0;
  const every = o.progressEvery ?? 10_000;
  try {
    const range = {
      ...(o.fromMs === undefined ? {} : { fromMs: o.fromMs }),
      ...(o.toMs === undefined ? {} : { toMs: o.toMs }),
    };
    const consume = (
      poolIds: readonly string[],
      ids: readonly string[],
      rs: ReplayedContractResult[],
      keys: readonly number[] = [],
    ): void => {
      const keyed = keys.length === rs.length;
      for (let i = 0; i < rs.length; i++) {
        const r = rs[i];
        const poolId = poolIds[i] ?? '';
        if (r === undefined) continue;
        n++;
        if (r.proven !== null) {
          const key = keys[i];
          if (keyed && key !== undefined)
            replayed.byKey.set(key, { contractId: ids[i] ?? '', proven: r.proven });
          else replayed.byId.set(ids[i] ?? '', r.proven);
        }
        const st = c.record('proof', 'replay.contract', poolId, r.findings);
        if (st === 'pass') verified++;
        else if (st === 'fail') mismatch++;
        else unverifiable++;
        if (n % every === 0) o.onProgress?.(n, n / Math.max(1e-9, (now() - t0) / 1000));
      }
    };
    const auto = o.distributed === undefined && (o.jobs === undefined || o.jobs === 'auto');
    const count = auto ? await mirror.countContracts(range) : 0;
    jobs =
      o.distributed !== undefined
        ? 0
        : auto
          ? chooseReplayJobs(count)
          : Math.max(1, Math.floor(o.jobs as number));
    const batchSize = Math.max(1, Math.floor(o.batchSize ?? BATCH_SIZE));
    /** what a reader thread reads, whichever way it is started below */
    const readerData = {
      mirrorPath: o.mirrorPath,
      range,
      batchSize,
      observations: { fromMs: o.fromMs, toMs: o.toMs },
    };
    const wantReader =
      jobs === 1 &&
      o.distributed === undefined &&
      (o.readerThread ??
        (auto &&
          count >= READER_MIN_CONTRACTS &&
          chooseReplayReader(count, defaultReplayJobs(), await sampleIdleCores())));
    const readerUrl = wantReader ? locateReplayReader() : null;
    if (wantReader && readerUrl === null && o.readerThread === true)
      throw new ReplayError(
        'REPLAY_WORKER_NOT_BUILT',
        'the replay reader thread dist/run/replay-reader.js is missing: run npm run build',
      );
    if (readerUrl !== null)
      reader = startReplayReader(readerUrl, {
        ...readerData,
        verify: {
          when: o.readerVerifies ?? 'when-ahead',
          typeFiles: o.typeFiles ?? [],
          dars: o.dars ?? [],
          cwd: o.cwd,
          profile: o.profile,
        },
      });
    if (o.distributed !== undefined) {
      // the batches' results come back in batch order: the same consumption as in-process
      jobs = await coordinateReplayRun(
        mirror,
        { ...o.distributed, range, profile: o.profile, types },
        consume,
      );
    } else if (reader !== null) {
      // the reader's batches in order: to verify here, or verified by the reader while it was ahead
      for await (const m of reader.batches()) {
        if (m.kind === 'batch') {
          const b = m.batch;
          consume(b.poolIds, b.contractIds, replayContractBatch(b, types, o.profile), b.contractKeys);
          o.onBatch?.('main', b.contractIds.length);
        } else {
          consume(m.poolIds, m.contractIds, unpackReplayResults(m.results), m.contractKeys);
          o.onBatch?.('reader', m.contractIds.length);
        }
      }
    } else if (jobs === 1) {
      for await (const b of mirror.iterateContractBatches(range, batchSize)) {
        consume(b.poolIds, b.contractIds, replayContractBatch(b, types, o.profile), b.contractKeys);
        o.onBatch?.('main', b.contractIds.length);
      }
    } else {
      // jobs verifying threads: this one and jobs − 1 workers. Each worker keeps two batches in
      // flight, read from the mirror by itself; while they are all busy this thread verifies the
      // next batch. Batches are consumed in submission order: the output is the in-process one
      const workers = jobs - 1;
      // the observations on a reader thread meanwhile (no contract stream: the workers read their
      // own batches), so that the history's rows are ready when the last batch is verified
      const observationsUrl = o.readerThread === false ? null : locateReplayReader();
      if (observationsUrl !== null)
        reader = startReplayReader(observationsUrl, { ...readerData, contracts: false });
      pool = await startReplayPool(workers, {
        typeFiles: o.typeFiles ?? [],
        dars: o.dars ?? [],
        cwd: o.cwd,
        profile: o.profile,
        mirrorPath: o.mirrorPath,
      });
      const workerPool = pool;
      // key ranges first: the connection cannot read batches while a scan is open
      const ranges: ContractKeyRange[] = [];
      for await (const keys of mirror.iterateContractKeyRanges(range, batchSize)) ranges.push(keys);
      const queue: { done: boolean; value: RangeResults | null; promise: Promise<RangeResults> }[] = [];
      let inFlight = 0;
      // a failed worker stops the dispatch (the error is raised in batch order below)
      let failed = false;
      const drain = (): void => {
        while (queue.length > 0 && queue[0]?.done === true) {
          const q = queue.shift()?.value;
          if (q !== null && q !== undefined) consume(q.poolIds, q.contractIds, q.results, q.contractKeys);
        }
      };
      for (const keys of ranges) {
        if (failed) break;
        if (inFlight < 2 * workers) {
          inFlight++;
          const entry: (typeof queue)[number] = {
            done: false,
            value: null,
            promise: workerPool.verifyRange(keys),
          };
          entry.promise.then(
            (v) => {
              entry.done = true;
              entry.value = v;
              inFlight--;
              o.onBatch?.('worker', v.contractIds.length);
            },
            () => {
              inFlight--;
              failed = true;
            },
          );
          queue.push(entry);
        } else {
          const b = await mirror.loadContractBatch(keys);
          const v = {
            contractIds: b.contractIds,
            poolIds: b.poolIds,
            contractKeys: b.contractKeys,
            results: replayContractBatch(b, types, o.profile),
          };
          queue.push({ done: true, value: v, promise: Promise.resolve(v) });
          o.onBatch?.('main', b.contractIds.length);
          // let the workers' replies in before choosing the next batch's thread
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        drain();
      }
      for (const e of queue) {
        const q = await e.promise; // rejections (a failed worker) are raised here, in order
        consume(q.poolIds, q.contractIds, q.results, q.contractKeys);
      }
    }
    const tContracts = now();
    // history over the recorded period, with the values just re-verified (not the stored status)
    const series = await loadObservationSeries(
      mirror,
      o.fromMs,
      o.toMs,
      replayed,
      reader?.observationPages(),
    );
    const tHistoryLoaded = now();
    let observations = 0;
    for (const [poolId, points] of series) {
      observations += points.length;
      checkHistorySeries(c, poolId, points, 0);
    }
    const tLoaded = now();
    const elapsed = now() - t0;
    o.onProgress?.(n, n / Math.max(1e-9, elapsed / 1000));
    const outcome = computeAuditOutcome(c.checks);
    return {
      summary: {
        outcome,
        exitCode: o.exitCodeOf?.(outcome) ?? computeAuditExitCode(outcome),
        mirror: mirror.path,
        from: o.fromMs === undefined ? null : new Date(o.fromMs).toISOString(),
        to: o.toMs === undefined ? null : new Date(o.toMs).toISOString(),
        contracts: n,
        verified,
        mismatch,
        couldNotCheck: unverifiable,
        pools: series.size,
        observations,
        durationMs: Math.round(elapsed),
        jobs,
        readerThread: reader !== null,
        contractsPerSecond: Math.round(n / Math.max(1e-9, elapsed / 1000)),
        phasesMs: {
          setup: Math.round(tSetup - t0),
          contracts: Math.round(tContracts - tSetup),
          historyLoad: Math.round(tHistoryLoaded - tContracts),
          historyChecks: Math.round(tLoaded - tHistoryLoaded),
        },
      },
      findings: c.findings,
      checks: c.checks,
    };
  } finally {
    await pool?.close();
    await reader?.close();
    await mirror.close();
  }
}
