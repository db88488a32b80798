/**
 * A pool of `replay` verification worker threads (docs/decisions/mirror.md, "replay workers"):
 * batches of stored contracts go to the least-busy worker — either the batch itself (its blob
 * buffer is transferred, not copied) or only its key range, which the worker reads from its own
 * read-only connection to the mirror (large replays: the main thread never touches a blob); each batch's promise resolves with its results in batch order, so the caller, awaiting
 * batches in submission order, produces exactly the output of the in-process path. A worker that
 * fails to start, throws, crashes or exits rejects its pending batches with ReplayError.
 * The worker always runs compiled, with plain node: from replay-worker.js next to this file
 * (dist/run/), or — when this file itself runs as TypeScript from src/run (tests, benchmarks) —
 * from the build in dist/run/ (`npm run build`); no TypeScript loader is ever involved.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReserveProfile } from '../core/proof/profile.js';
import { ReplayError } from '../errors/replay.js';
import type { ContractBatch, ContractKeyRange } from '../io/store/index.js';
import {
  type PackedReplayResults,
  type ReplayedContractResult,
  unpackReplayResults,
} from './replay-contract.js';

export interface ReplayWorkerData {
  readonly typeFiles: readonly string[];
  readonly dars: readonly string[];
  readonly cwd: string | undefined;
  readonly profile: ReserveProfile;
  /** the mirror, opened read-only by each worker for `verifyRange` (large replays) */
  readonly mirrorPath?: string;
}

export type ReplayWorkerRequest =
  | { readonly id: number; readonly batch: ContractBatch }
  | { readonly id: number; readonly keys: ContractKeyRange };

/** A batch a worker read from the mirror itself, with its results. */
export interface RangeResults {
  readonly contractIds: string[];
  readonly poolIds: string[];
  /** the contracts' row keys (empty when the worker did not read the batch) */
  readonly contractKeys: number[];
  readonly results: ReplayedContractResult[];
}

export type ReplayWorkerReply =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'results';
      readonly id: number;
      readonly results: PackedReplayResults;
      /** present when the worker read the batch from the mirror */
      readonly contractIds?: string[];
      readonly poolIds?: string[];
      readonly contractKeys?: number[];
    }
  | { readonly kind: 'error'; readonly id: number | null; readonly message: string };

export interface ReplayPool {
  readonly size: number;
  /** verifies one batch on a worker; resolves with one result per contract, in batch order */
  verify(batch: ContractBatch): Promise<ReplayedContractResult[]>;
  /** verifies the contracts of a key range, read from the mirror by the worker itself */
  verifyRange(keys: ContractKeyRange): Promise<RangeResults>;
  /** terminates every worker (pending batches are rejected) */
  close(): Promise<void>;
}

interface Pending {
  resolve(r: RangeResults): void;
  reject(e: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  failed: ReplayError | null;
}

/**
 * The compiled worker: replay-worker.js next to this file when it runs from dist/, or
 * dist/run/replay-worker.js when it runs as TypeScript from src/run/. Throws ReplayError
 * REPLAY_WORKER_NOT_BUILT when that file is absent.
 */
export function locateReplayWorker(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = fromSource
    ? new URL('../../dist/run/replay-worker.js', import.meta.url)
    : new URL('./replay-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    throw new ReplayError(
      'REPLAY_WORKER_NOT_BUILT',
      `the replay worker ${fileURLToPath(url)} is missing: run npm run build (or use --jobs 1)`,
    );
  return url;
}

/** Starts one worker on the compiled replay-worker.js (plain node, no loader). */
export function spawnReplayWorker(data: ReplayWorkerData): Worker {
  return new Worker(locateReplayWorker(), { workerData: data });
}

/** Starts `jobs` workers and waits until each has loaded its type environment. */
export async function startReplayPool(jobs: number, data: ReplayWorkerData): Promise<ReplayPool> {
  let nextId = 0;
  let closing = false;
  const slots: Slot[] = [];
  const fail = (s: Slot, why: string, cause?: unknown): ReplayError => {
    const e =
      s.failed ??
      new ReplayError('REPLAY_WORKER_FAILED', `replay worker ${s.worker.threadId} failed: ${why}`, {
        ...(cause === undefined ? {} : { cause }),
      });
    s.failed = e;
    for (const p of s.pending.values()) p.reject(e);
    s.pending.clear();
    return e;
  };
  const ready = Array.from({ length: jobs }, () => {
    const worker = spawnReplayWorker(data);
    const s: Slot = { worker, pending: new Map(), failed: null };
    slots.push(s);
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (m: ReplayWorkerReply) => {
        if (m.kind === 'ready') resolve();
        else if (m.kind === 'results') {
          const p = s.pending.get(m.id);
          s.pending.delete(m.id);
          p?.resolve({
            contractIds: m.contractIds ?? [],
            poolIds: m.poolIds ?? [],
            contractKeys: m.contractKeys ?? [],
            results: unpackReplayResults(m.results),
          });
        } else if (m.id === null) reject(fail(s, `could not start: ${m.message}`));
        else {
          const p = s.pending.get(m.id);
          s.pending.delete(m.id);
          p?.reject(
            new ReplayError(
              'REPLAY_WORKER_FAILED',
              `replay worker ${worker.threadId} failed on a batch: ${m.message}`,
            ),
          );
        }
      });
      worker.on('error', (e) => reject(fail(s, e.message, e)));
      worker.on('exit', (code) => {
        if (!closing) reject(fail(s, `exited with code ${code}`));
      });
    });
  });
  const close = async (): Promise<void> => {
    closing = true;
    for (const s of slots) fail(s, 'the pool was closed');
    await Promise.all(slots.map((s) => s.worker.terminate()));
  };
  try {
    await Promise.all(ready);
  } catch (e) {
    await close();
    throw e;
  }
  const pick = (): Slot | ReplayError => {
    let best: Slot | undefined;
    for (const s of slots)
      if (s.failed === null && (best === undefined || s.pending.size < best.pending.size)) best = s;
    return best ?? slots[0]?.failed ?? new ReplayError('REPLAY_WORKER_FAILED', 'no replay worker left');
  };
  const post = (req: ReplayWorkerRequest, transfer: ArrayBuffer[]): Promise<RangeResults> => {
    const slot = pick();
    if (slot instanceof ReplayError) return Promise.reject(slot);
    return new Promise<RangeResults>((resolve, reject) => {
      slot.pending.set(req.id, { resolve, reject });
      try {
        slot.worker.postMessage(req, transfer);
      } catch (e) {
        slot.pending.delete(req.id);
        const why = e instanceof Error ? e.message : String(e);
        reject(
          new ReplayError('REPLAY_WORKER_FAILED', `a replay batch could not be posted: ${why}`, {
            cause: e,
          }),
        );
      }
    });
  };
  return {
    size: jobs,
    verify: async (batch) => {
      // a batch whose buffer was already transferred arrives empty (Node posts it without error)
      if (batch.blobs.byteLength !== (batch.ends[batch.ends.length - 1] ?? 0))
        throw new ReplayError(
          'REPLAY_WORKER_FAILED',
          'a replay batch can be verified once (its blobs were transferred)',
        );
      const r = await post({ id: nextId++, batch }, [batch.blobs.buffer as ArrayBuffer]);
      return r.results;
    },
    verifyRange: (keys) => {
      if (data.mirrorPath === undefined)
        return Promise.reject(
          new ReplayError('REPLAY_WORKER_FAILED', 'the replay pool was started without a mirror'),
        );
      return post({ id: nextId++, keys }, []);
    },
    close,
  };
}
