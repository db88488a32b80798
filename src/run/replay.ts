/**
 * The `replay` pipeline (the issue "replay"): re-verify every reserve contract stored in the
 * mirror once per contract ID with the one proof step (./replay-contract.ts: decode → type → hash
 * → compare → reserves via the profile, then the recorded values against the blob's) in this
 * thread, batch by batch as the mirror streams them — or, on a PostgreSQL mirror, shared by
 * processes (./replay-distributed.ts) — then re-run the history checks over the recorded period
 * (./replay-series.ts) → a report. Worker threads and a reader thread were removed: on the
 * machines replay runs on they did not win (docs/bench/audit.md, "Removed: replay workers and
 * the reader thread"). Pure checks from src/core/audit; the mirror is read through the
 * store's functions; never an exit code, never stdout.
 */

import {
  AuditCollector,
  type AuditOutcome,
  type AuditResult,
  checkHistorySeries,
  computeAuditExitCode,
  computeAuditOutcome,
} from '../core/audit/index.js';
import type { ReserveProfile } from '../core/proof/index.js';
import { AuditError } from '../errors/audit.js';
import { InstallError } from '../errors/install.js';
import { loadTypesOrDefault } from '../io/files/default-types.js';
import { type MirrorStore, openMirrorStore } from '../io/store/index.js';
import { formatMirrorUnavailable } from './history.js';
import { createReplayContext, type ReplayedContractResult, replayContractBatch } from './replay-contract.js';
import { type CoordinateReplayOptions, coordinateReplayRun } from './replay-distributed.js';
import { loadObservationSeries, type ReplayedContracts } from './replay-series.js';

/** Contracts per batch read from the mirror and verified in one go. */
const BATCH_SIZE = 512;

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
  /** contracts per batch (default 512) */
  readonly batchSize?: number;
  /**
   * @deprecated `summary.exitCode` is always filled from the one outcome → exit-code table
   * (`computeAuditExitCode`); a map given here still replaces it
   */
  readonly exitCodeOf?: (outcome: AuditOutcome) => number;
  /**
   * distributed replay (PostgreSQL mirror, ./replay-distributed.ts): this process coordinates a
   * run that `replay --worker` processes share
   */
  readonly distributed?: Pick<CoordinateReplayOptions, 'work' | 'leaseMs' | 'pollMs' | 'onWaiting'>;
}

interface ReplaySummary {
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
  /** the processes that verified batches: 1 in-process; distributed, those that took part */
  readonly jobs: number;
  /**
   * @deprecated always false since the reader thread was removed; kept in the JSON summary for one
   * version (docs/cli.md "replay")
   */
  readonly readerThread: false;
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
    if (e instanceof InstallError) throw e;
    throw new AuditError('MIRROR_UNAVAILABLE', formatMirrorUnavailable(o.mirrorPath, e), { cause: e });
  }
  const tSetup = now();
  let jobs = 1;
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
    if (o.distributed !== undefined) {
      // the batches' results come back in batch order: the same consumption as in-process
      jobs = await coordinateReplayRun(
        mirror,
        { ...o.distributed, range, profile: o.profile, types },
        consume,
      );
    } else {
      const batchSize = Math.max(1, Math.floor(o.batchSize ?? BATCH_SIZE));
      const context = createReplayContext();
      for await (const b of mirror.iterateContractBatches(range, batchSize))
        consume(b.poolIds, b.contractIds, replayContractBatch(b, types, o.profile, context), b.contractKeys);
    }
    const tContracts = now();
    // history over the recorded period, with the values just re-verified (not the stored status)
    const series = await loadObservationSeries(mirror, o.fromMs, o.toMs, replayed);
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
        readerThread: false,
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
    await mirror.close();
  }
}
