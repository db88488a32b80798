/**
 * The main thread's side of replay's reader thread (./replay-reader.ts): starts it on the compiled
 * dist/run/replay-reader.js and hands its messages out, in order, as two streams — the contract
 * batches, then the observation pages — acknowledging each message as it is taken (the reader keeps
 * a bounded number ahead). A typed error raised in the reader is raised again here with its code
 * (a corrupt blob is the same StoreError as in-process); a reader that dies is ReplayError
 * REPLAY_WORKER_FAILED.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReplayError } from '../errors/replay.js';
import { StoreError, type StoreErrorCode } from '../errors/store.js';
import type { ContractBatch, ContractRange, ObservationKeyRow, ObservationRange } from '../io/store/index.js';

/** Messages the reader posts ahead of the acknowledgements; one acknowledgement per ACK_EVERY taken. */
export const READ_AHEAD = 8;
export const ACK_EVERY = 4;

export interface ReplayReaderData {
  readonly mirrorPath: string;
  readonly range: ContractRange;
  readonly batchSize: number;
  readonly observations: ObservationRange;
}

export type ReplayReaderMessage =
  | { readonly kind: 'batch'; readonly batch: ContractBatch }
  | { readonly kind: 'contracts-done' }
  | { readonly kind: 'observations'; readonly rows: ObservationKeyRow[] }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly name: string; readonly code: string | null; readonly message: string };

export interface ReplayReader {
  /** the contract batches in replay order (call once, before observationPages) */
  batches(): AsyncGenerator<ContractBatch, void, undefined>;
  /** then the observations of the period as key rows, in pages */
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

/** Starts the reader thread at `url` (locateReplayReader) over `data`. */
export function startReplayReader(url: URL, data: ReplayReaderData): ReplayReader {
  const worker = new Worker(url, { workerData: data });
  const queue: ReplayReaderMessage[] = [];
  let failure: Error | null = null;
  let done = false;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: ReplayReaderMessage) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure ??= new ReplayError('REPLAY_WORKER_FAILED', `replay reader thread failed: ${e.message}`, {
      cause: e,
    });
    notify();
  });
  worker.on('exit', (code) => {
    // messages posted before the exit are delivered first
    if (!done)
      failure ??= new ReplayError(
        'REPLAY_WORKER_FAILED',
        `replay reader thread exited (code ${code}) before the end of the mirror`,
      );
    notify();
  });
  let taken = 0;
  const next = async (): Promise<ReplayReaderMessage> => {
    for (;;) {
      const m = queue.shift();
      if (m !== undefined) {
        if (m.kind === 'error') throw toError(m);
        if (m.kind === 'done') done = true;
        // ACK_EVERY more messages may be read ahead (./replay-reader.ts)
        else if (++taken % ACK_EVERY === 0) worker.postMessage(0);
        return m;
      }
      if (failure !== null) throw failure;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    async *batches() {
      for (;;) {
        const m = await next();
        if (m.kind === 'batch') yield m.batch;
        else if (m.kind === 'contracts-done') return;
        else
          throw new ReplayError('REPLAY_WORKER_FAILED', `replay reader thread sent ${m.kind} among batches`);
      }
    },
    async *observationPages() {
      for (;;) {
        const m = await next();
        if (m.kind === 'observations') yield m.rows;
        else if (m.kind === 'done') return;
        else
          throw new ReplayError(
            'REPLAY_WORKER_FAILED',
            `replay reader thread sent ${m.kind} among observations`,
          );
      }
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
