/**
 * The main thread's side of replay's reader thread (./replay-reader.ts): starts it on the compiled
 * dist/run/replay-reader.js and hands its messages out, each stream in order, as two streams — the
 * contract batches, acknowledged as they are taken (the reader keeps a bounded number ahead), and
 * the observation pages, which the reader reads beside them on a second connection. A typed error
 * raised in the reader is raised again here with its code, in the stream it belongs to (a corrupt
 * blob is the same StoreError as in-process); a reader that dies is ReplayError
 * REPLAY_WORKER_FAILED.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReserveProfile } from '../core/proof/profile.js';
import { ReplayError } from '../errors/replay.js';
import { StoreError, type StoreErrorCode } from '../errors/store.js';
import type { ContractBatch, ContractRange, ObservationKeyRow, ObservationRange } from '../io/store/index.js';
import type { PackedReplayResults } from './replay-contract.js';

/**
 * Batches the reader posts ahead of the acknowledgements; one acknowledgement per ACK_EVERY taken
 * (every batch: the reader decides from how many wait here whether to verify the next itself).
 */
export const READ_AHEAD = 8;
export const ACK_EVERY = 1;

/**
 * When the reader verifies batches itself (./replay-reader.ts): 'when-ahead' = a batch read while
 * enough batches already wait for the main thread (instead of idling; both threads stay busy),
 * 'always' = every batch (tests), 'never' = none (the main thread verifies every batch).
 */
export type ReaderVerifies = 'when-ahead' | 'always' | 'never';

export interface ReplayReaderData {
  readonly mirrorPath: string;
  readonly range: ContractRange;
  readonly batchSize: number;
  readonly observations: ObservationRange;
  /**
   * false: read only the observations (replay with workers, which read their own batches: the
   * history's rows are then ready when the last batch is verified); the contract stream just ends
   */
  readonly contracts?: boolean;
  /** what the reader needs to verify batches itself: the main thread's type sources and profile */
  readonly verify?: {
    readonly when: ReaderVerifies;
    readonly typeFiles: readonly string[];
    readonly dars: readonly string[];
    readonly cwd?: string | undefined;
    readonly profile: ReserveProfile;
  };
}

/** A batch the reader verified itself: the rows' identities and their packed results. */
export interface ReaderVerifiedBatch {
  readonly kind: 'verified';
  readonly contractIds: string[];
  readonly poolIds: string[];
  readonly contractKeys: number[];
  readonly results: PackedReplayResults;
}

/** What the contract stream carries, in replay order: a batch to verify, or one the reader verified. */
export type ReaderContractItem =
  | { readonly kind: 'batch'; readonly batch: ContractBatch }
  | ReaderVerifiedBatch;

/** The reader's two streams: the contract batches, and the observation pages read beside them. */
export type ReplayReaderStream = 'contracts' | 'observations';

export type ReplayReaderMessage =
  | ReaderContractItem
  | { readonly kind: 'contracts-done' }
  | { readonly kind: 'observations'; readonly rows: ObservationKeyRow[] }
  | { readonly kind: 'observations-done' }
  | {
      readonly kind: 'error';
      readonly stream: ReplayReaderStream;
      readonly name: string;
      readonly code: string | null;
      readonly message: string;
    };

export interface ReplayReader {
  /** the contract batches in replay order, each to verify or verified by the reader (call once) */
  batches(): AsyncGenerator<ReaderContractItem, void, undefined>;
  /** the observations of the period as key rows, in pages (call once; they are read beside the batches) */
  observationPages(): AsyncGenerator<ObservationKeyRow[], void, undefined>;
  /** stops the thread (idempotent) */
  close(): Promise<void>;
}

/** The compiled reader next to this file (dist/) or in dist/run/ (from src/run/); null when not built. */
export function locateReplayReader(): URL | null {
  const url = import.meta.url.endsWith('.ts')
    ? new URL('../../dist/run/replay-reader.js', import.meta.url)
    : new URL('./replay-reader.js', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

function toError(m: Extract<ReplayReaderMessage, { kind: 'error' }>): Error {
  if (m.name === 'StoreError' && m.code !== null) return new StoreError(m.code as StoreErrorCode, m.message);
  return new ReplayError(
    'REPLAY_WORKER_FAILED',
    `replay reader thread failed: ${m.code === null ? '' : `${m.code}: `}${m.message}`,
  );
}

/**
 * The messages of one of the reader's streams, in order: `next` waits for the next one and raises
 * the stream's error (or the thread's failure) in its place.
 */
class StreamQueue {
  private readonly items: ReplayReaderMessage[] = [];
  private wake: (() => void) | null = null;
  ended = false;

  constructor(private readonly failure: () => Error | null) {}

  push(m: ReplayReaderMessage): void {
    this.items.push(m);
    this.notify();
  }

  notify(): void {
    this.wake?.();
    this.wake = null;
  }

  async next(): Promise<ReplayReaderMessage> {
    for (;;) {
      const m = this.items.shift();
      if (m !== undefined) {
        if (m.kind === 'error') throw toError(m);
        return m;
      }
      const f = this.failure();
      if (f !== null) throw f;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/** Starts the reader thread at `url` (locateReplayReader) over `data`. */
export function startReplayReader(url: URL, data: ReplayReaderData): ReplayReader {
  const worker = new Worker(url, { workerData: data });
  let failure: Error | null = null;
  const contracts = new StreamQueue(() => failure);
  const observations = new StreamQueue(() => failure);
  const notify = (): void => {
    contracts.notify();
    observations.notify();
  };
  worker.on('message', (m: ReplayReaderMessage) => {
    const q =
      m.kind === 'observations' ||
      m.kind === 'observations-done' ||
      (m.kind === 'error' && m.stream === 'observations')
        ? observations
        : contracts;
    if (m.kind === 'contracts-done' || m.kind === 'observations-done') q.ended = true;
    q.push(m);
  });
  worker.on('error', (e) => {
    failure ??= new ReplayError('REPLAY_WORKER_FAILED', `replay reader thread failed: ${e.message}`, {
      cause: e,
    });
    notify();
  });
  worker.on('exit', (code) => {
    // messages posted before the exit are delivered first
    if (!contracts.ended || !observations.ended)
      failure ??= new ReplayError(
        'REPLAY_WORKER_FAILED',
        `replay reader thread exited (code ${code}) before the end of the mirror`,
      );
    notify();
  });
  let taken = 0;
  return {
    async *batches() {
      for (;;) {
        const m = await contracts.next();
        if (m.kind === 'contracts-done') return;
        if (m.kind !== 'batch' && m.kind !== 'verified')
          throw new ReplayError('REPLAY_WORKER_FAILED', `replay reader thread sent ${m.kind} among batches`);
        // ACK_EVERY more batches may be read ahead (./replay-reader.ts)
        if (++taken % ACK_EVERY === 0) worker.postMessage(0);
        yield m;
      }
    },
    async *observationPages() {
      for (;;) {
        const m = await observations.next();
        if (m.kind === 'observations-done') return;
        if (m.kind !== 'observations')
          throw new ReplayError(
            'REPLAY_WORKER_FAILED',
            `replay reader thread sent ${m.kind} among observations`,
          );
        yield m.rows;
      }
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
