/**
 * Distributed `replay` over a shared PostgreSQL mirror (docs/mirror.md "Distributed replay"):
 * `replay --run` (the coordinator) creates a run — the contracts cut into key-range batches in the
 * database (src/io/store/replay-runs.ts) — verifies batches itself too unless told not to, waits
 * until every batch is done, then reads the results back in batch order, so ./replay.ts builds
 * exactly the report of a single-process replay. `replay --worker` processes (any number, on any
 * machine reaching the database) claim batches (`FOR UPDATE SKIP LOCKED`, with a lease), verify
 * them with the one replay step (./replay-contract.ts, unchanged) and store the results; a killed
 * worker's batch is claimed again once its lease expires. A killed coordinator is noticed by the
 * workers: a live coordinator closes its run within one poll of the last batch being done, so a
 * run with every batch done that stays open for the coordinator's lease (`coordinatorLeaseMs`,
 * the batches' default lease, 60 s) has lost its coordinator — a worker marks it `abandoned` and
 * stops waiting for it. Results travel as JSON with bigints tagged, so they come back value for value.
 */
import { hostname } from 'node:os';
import type { ReserveProfile } from '../core/proof/profile.js';
import type { ProofContext } from '../core/proof/proof-context.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { ReplayError } from '../errors/replay.js';
import { loadTypesOrDefault, type TypeSources } from '../io/files/default-types.js';
import type { ContractRange, DistributedReplay, MirrorStore, ReplayBatchClaim } from '../io/store/index.js';
import { openMirrorStore } from '../io/store/index.js';
import { createReplayContext, type ReplayedContractResult, replayContractBatch } from './replay-contract.js';

/** Contracts per batch of a distributed run (as the thread pool's). */
const DISTRIBUTED_BATCH_SIZE = 512;
/** How long a claim holds by default: far longer than a batch takes (~50 ms), short enough to recover. */
const DEFAULT_LEASE_MS = 60_000;

/** One batch's results as stored in the database. */
interface ReplayBatchOutcome {
  readonly contractIds: readonly string[];
  readonly poolIds: readonly string[];
  readonly results: readonly ReplayedContractResult[];
}

const BIGINT = '$bigint';

/** JSON text of a batch's results (bigints tagged so they come back as bigints). */
function formatReplayBatchOutcome(o: ReplayBatchOutcome): string {
  return JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? { [BIGINT]: v.toString() } : v));
}

/** Parses what formatReplayBatchOutcome wrote; throws ReplayError REPLAY_RUN_FAILED when it is not that. */
function parseReplayBatchOutcome(text: string, what: string): ReplayBatchOutcome {
  let v: unknown;
  try {
    v = JSON.parse(text, (_k, x: unknown) => {
      if (typeof x === 'object' && x !== null && BIGINT in x) {
        const s = (x as Record<string, unknown>)[BIGINT];
        if (typeof s === 'string' && /^-?\d+$/.test(s)) return BigInt(s);
      }
      return x;
    });
  } catch (e) {
    throw new ReplayError(
      'REPLAY_RUN_FAILED',
      `${what} expected the JSON of a replay batch, got unparsable text`,
      {
        cause: e,
      },
    );
  }
  const o = v as Partial<ReplayBatchOutcome> | null;
  const ok =
    o !== null &&
    typeof o === 'object' &&
    Array.isArray(o.contractIds) &&
    Array.isArray(o.poolIds) &&
    Array.isArray(o.results) &&
    o.contractIds.length === o.results.length &&
    o.poolIds.length === o.results.length;
  if (!ok)
    throw new ReplayError(
      'REPLAY_RUN_FAILED',
      `${what} expected {contractIds, poolIds, results} of equal lengths, got ${text.slice(0, 80)}`,
    );
  return o as ReplayBatchOutcome;
}

/**
 * The reserve profile a run stores (the coordinator's parsed profile as JSON, so every worker
 * verifies with the same one); throws ReplayError REPLAY_RUN_FAILED when it is not one.
 */
function parseStoredProfile(text: string, what: string): ReserveProfile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ReplayError('REPLAY_RUN_FAILED', `${what} expected JSON, got unparsable text`, { cause: e });
  }
  const p = v as Partial<ReserveProfile> | null;
  if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || !Array.isArray(p.templates))
    throw new ReplayError(
      'REPLAY_RUN_FAILED',
      `${what} expected {name, templates}, got ${text.slice(0, 80)}`,
    );
  return p as ReserveProfile;
}

/** This process's worker name: host:pid (what `replay_batches.worker` records). */
function computeWorkerId(suffix = ''): string {
  return `${hostname()}:${process.pid}${suffix}`;
}

function queueOf(store: MirrorStore): DistributedReplay {
  if (store.distributed === null)
    throw new ReplayError(
      'REPLAY_NEEDS_SHARED_MIRROR',
      `distributed replay expected a PostgreSQL mirror opened read-write, got ${store.backend} "${store.path}"`,
    );
  return store.distributed;
}

/** Verifies one claimed batch and stores its results; false when the claim was lost meanwhile. */
async function workClaim(
  store: MirrorStore,
  q: DistributedReplay,
  claim: ReplayBatchClaim,
  types: TypeEnv,
  profiles: Map<string, ReserveProfile>,
  context: ProofContext,
): Promise<{ readonly stored: boolean; readonly contracts: number }> {
  let profile = profiles.get(claim.profileJson);
  if (profile === undefined) {
    profile = parseStoredProfile(claim.profileJson, `replay run ${claim.runId} profile`);
    profiles.set(claim.profileJson, profile);
  }
  const batch = await store.readContractBatch(claim.keys);
  const results = replayContractBatch(batch, types, profile, context);
  const stored = await q.recordReplayBatchResults(
    claim,
    formatReplayBatchOutcome({ contractIds: batch.contractIds, poolIds: batch.poolIds, results }),
  );
  return { stored, contracts: batch.contractIds.length };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface CoordinateReplayOptions {
  readonly range: ContractRange;
  readonly profile: ReserveProfile;
  readonly types: TypeEnv;
  /** verify batches in this process too (default true) */
  readonly work?: boolean;
  readonly leaseMs?: number;
  /** how often to look at the run's progress while waiting (default 200 ms) */
  readonly pollMs?: number;
  readonly onWaiting?: (done: number, batches: number) => void;
}

/**
 * Creates a run, works on it (unless `work` is false) and waits for every batch; then hands each
 * batch's results to `consume` in batch order. Returns the number of distinct processes that
 * verified batches.
 */
export async function coordinateReplayRun(
  store: MirrorStore,
  o: CoordinateReplayOptions,
  consume: (poolIds: readonly string[], ids: readonly string[], rs: ReplayedContractResult[]) => void,
): Promise<number> {
  const q = queueOf(store);
  const run = await q.createReplayRun({
    range: o.range,
    batchSize: DISTRIBUTED_BATCH_SIZE,
    leaseMs: o.leaseMs ?? DEFAULT_LEASE_MS,
    profileJson: JSON.stringify(o.profile),
  });
  const me = computeWorkerId(':coordinator');
  const profiles = new Map<string, ReserveProfile>([[JSON.stringify(o.profile), o.profile]]);
  const context = createReplayContext();
  let finished = false;
  try {
    for (;;) {
      const claim = o.work === false ? null : await q.claimReplayBatch(me, run.runId);
      if (claim !== null) {
        await workClaim(store, q, claim, o.types, profiles, context);
        continue;
      }
      const p = await q.readReplayRunProgress(run.runId);
      o.onWaiting?.(p.done, p.batches);
      if (p.done === p.batches) break;
      await sleep(o.pollMs ?? 200);
    }
    let seq = 0;
    for await (const b of q.iterateReplayBatchResults(run.runId)) {
      if (b.seq !== seq)
        throw new ReplayError(
          'REPLAY_RUN_FAILED',
          `replay run ${run.runId} expected batch ${seq}, got ${b.seq}`,
        );
      const r = parseReplayBatchOutcome(b.results, `replay run ${run.runId} batch ${b.seq}`);
      consume(r.poolIds, r.contractIds, [...r.results]);
      seq += 1;
    }
    if (seq !== run.batches)
      throw new ReplayError(
        'REPLAY_RUN_FAILED',
        `replay run ${run.runId} expected ${run.batches} batches, got ${seq}`,
      );
    const workers = (await q.readReplayRunProgress(run.runId)).workers;
    await q.finishReplayRun(run.runId, 'done');
    finished = true;
    return workers;
  } finally {
    if (!finished) await q.finishReplayRun(run.runId, 'abandoned').catch(() => {});
  }
}

export interface ReplayWorkerOptions extends TypeSources {
  /** the PostgreSQL mirror (postgres://…) */
  readonly mirrorPath: string;
  /** exit when no run is open: after having worked, or after waiting this long for one (default 60 s) */
  readonly waitMs?: number;
  readonly pollMs?: number;
  /**
   * how long a run may stay open with every batch done before its coordinator is presumed dead and
   * the run abandoned (default 60 s, the default lease)
   */
  readonly coordinatorLeaseMs?: number;
  readonly workerId?: string;
  readonly onBatch?: (runId: number, seq: number, contracts: number) => void;
}

export interface ReplayWorkerReport {
  readonly worker: string;
  readonly batches: number;
  readonly contracts: number;
  /** batches whose claim was lost (lease expired and taken over) before the results were stored */
  readonly lost: number;
  readonly runs: readonly number[];
  /** runs this worker abandoned: every batch done, but their coordinator gone (its lease expired) */
  readonly abandoned: readonly number[];
}

/**
 * Whether an open run has lost its coordinator: every batch has been done for at least `leaseMs`
 * (as seen by this worker) and the run is still open. Tracks when each run became idle in `idleSince`.
 */
async function isOrphanedRun(
  q: DistributedReplay,
  runId: number,
  idleSince: Map<number, number>,
  leaseMs: number,
): Promise<boolean> {
  const p = await q.readReplayRunProgress(runId);
  if (p.status !== 'open' || p.done < p.batches) {
    idleSince.delete(runId);
    return false;
  }
  const now = Date.now();
  const since = idleSince.get(runId) ?? now;
  idleSince.set(runId, since);
  return now - since >= leaseMs;
}

/**
 * `replay --worker`: claims and verifies batches of open runs until none is left; a run whose
 * coordinator is gone (every batch done, still open after the coordinator's lease) is abandoned.
 */
export async function runReplayWorker(o: ReplayWorkerOptions): Promise<ReplayWorkerReport> {
  const types = await loadTypesOrDefault(o);
  const store = await openMirrorStore(o.mirrorPath, { poolSize: 2 });
  try {
    const q = queueOf(store);
    const worker = o.workerId ?? computeWorkerId();
    const profiles = new Map<string, ReserveProfile>();
    const context = createReplayContext();
    const runs = new Set<number>();
    let batches = 0;
    let contracts = 0;
    let lost = 0;
    let sawRun = false;
    const started = Date.now();
    const leaseMs = o.coordinatorLeaseMs ?? DEFAULT_LEASE_MS;
    /** open run → when this worker first saw every batch of it done (ms, this process's clock) */
    const idleSince = new Map<number, number>();
    const abandoned: number[] = [];
    for (;;) {
      const claim = await q.claimReplayBatch(worker);
      if (claim !== null) {
        const r = await workClaim(store, q, claim, types, profiles, context);
        runs.add(claim.runId);
        if (r.stored) {
          batches += 1;
          contracts += r.contracts;
          o.onBatch?.(claim.runId, claim.seq, r.contracts);
        } else lost += 1;
        continue;
      }
      const open = await q.readOpenReplayRuns();
      const live: number[] = [];
      for (const runId of open) {
        if (await isOrphanedRun(q, runId, idleSince, leaseMs)) {
          await q.finishReplayRun(runId, 'abandoned');
          abandoned.push(runId);
          sawRun = true;
        } else live.push(runId);
      }
      if (live.length > 0) sawRun = true;
      else if (sawRun || batches + lost > 0 || Date.now() - started >= (o.waitMs ?? 60_000)) break;
      await sleep(o.pollMs ?? 200);
    }
    return { worker, batches, contracts, lost, runs: [...runs], abandoned };
  } finally {
    await store.close();
  }
}
