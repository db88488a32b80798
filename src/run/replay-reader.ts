/**
 * The `replay` reader thread (docs/bench/audit.md "A reader thread"): opens the mirror read-only
 * twice and streams, in replay order, the contract batches (each batch's blobs transferred, not
 * copied) and, from the second connection in between, the observations of the period as key rows,
 * so that reading SQLite and inflating the blobs run on another core while the main thread
 * verifies, and the observations are there when the last batch is verified. At most READ_AHEAD
 * batches are unacknowledged (memory stays bounded; the observation pages are what the history
 * checks hold anyway). A failure is posted back as an error message carrying the typed error's
 * code, never swallowed. It always runs compiled (dist/run/replay-reader.js) with plain node.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { TypeEnv } from '../core/types/type-env.js';
import { isReserveAuditError } from '../errors/index.js';
import { loadTypesOrDefault } from '../io/files/default-types.js';
import { type MirrorStore, openMirrorStore } from '../io/store/index.js';
import { packReplayResults, replayContractBatch } from './replay-contract.js';
import {
  ACK_EVERY,
  READ_AHEAD,
  type ReplayReaderData,
  type ReplayReaderMessage,
  type ReplayReaderStream,
} from './replay-read-thread.js';

if (parentPort === null) throw new Error('replay-reader.js must run as a worker thread');
const port: MessagePort = parentPort;
const data = workerData as ReplayReaderData;

let credits = READ_AHEAD;
let wake: (() => void) | null = null;
port.on('message', () => {
  credits += ACK_EVERY;
  wake?.();
  wake = null;
});
/** Posts a batch once the main thread has room for it (READ_AHEAD). */
const postBatch = async (m: ReplayReaderMessage, transfer: ArrayBuffer[] = []): Promise<void> => {
  while (credits <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  port.postMessage(m, transfer);
};

/**
 * 'when-ahead': this thread verifies the batch it has just read when at least this many batches
 * wait for the main thread (acknowledged one by one, ACK_EVERY = 1). Measured over 100,000 contracts
 * (docs/bench/audit.md, "the reader verifying when ahead"): with 2 the two threads' CPU times were
 * even (3.2 s each at load 7, the reader verifying 28–29 % of the batches); with 8 (only when the
 * read-ahead was full) the reader verified 9–17 % and stayed 0.4–0.7 s of CPU below the main thread.
 */
const VERIFY_AHEAD = 2;

/** The type environment when this thread verifies batches (data.verify), else null. */
const types: TypeEnv | null =
  data.verify === undefined || data.verify.when === 'never'
    ? null
    : await loadTypesOrDefault({
        typeFiles: data.verify.typeFiles,
        dars: data.verify.dars,
        ...(data.verify.cwd === undefined ? {} : { cwd: data.verify.cwd }),
      });

/**
 * The contract batches, in order, at most READ_AHEAD unacknowledged. A batch read while the main
 * thread already has VERIFY_AHEAD waiting is verified here (data.verify.when 'when-ahead') and sent
 * as results: this thread would otherwise idle until the main thread catches up.
 */
async function readBatches(mirror: MirrorStore): Promise<void> {
  const v = data.verify;
  for await (const batch of mirror.iterateContractBatches(data.range, data.batchSize)) {
    // let in the acknowledgements that arrived meanwhile: `credits` is then how far ahead we are
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (types !== null && v !== undefined && (v.when === 'always' || READ_AHEAD - credits >= VERIFY_AHEAD)) {
      const results = packReplayResults(replayContractBatch(batch, types, v.profile));
      await postBatch(
        {
          kind: 'verified',
          contractIds: batch.contractIds,
          poolIds: batch.poolIds,
          contractKeys: batch.contractKeys,
          results,
        },
        [
          results.proven.buffer as ArrayBuffer,
          results.createdAtMicros.buffer as ArrayBuffer,
          results.templateIndex.buffer as ArrayBuffer,
        ],
      );
    } else
      await postBatch({ kind: 'batch', batch }, [
        batch.blobs.buffer as ArrayBuffer,
        batch.ends.buffer as ArrayBuffer,
      ]);
  }
  await postBatch({ kind: 'contracts-done' });
}

/**
 * The observation pages, on their own connection, while the batches wait for acknowledgements:
 * the main thread needs all of them after the last batch, so they are not held back (they are
 * what the in-process path holds as history points). After each page the acknowledgements that
 * arrived meanwhile are let in, so the batches keep flowing.
 */
async function readObservations(mirror: MirrorStore): Promise<void> {
  for await (const rows of mirror.iterateObservationKeyPages(data.observations)) {
    port.postMessage({ kind: 'observations', rows } satisfies ReplayReaderMessage);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  port.postMessage({ kind: 'observations-done' } satisfies ReplayReaderMessage);
}

/** Runs one stream; its failure is posted back as an error of that stream, never swallowed. */
async function stream(name: ReplayReaderStream, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (e) {
    port.postMessage({
      kind: 'error',
      stream: name,
      name: e instanceof Error ? e.name : 'Error',
      code: isReserveAuditError(e) ? e.code : null,
      message: isReserveAuditError(e) ? e.shortMessage : e instanceof Error ? e.message : String(e),
    } satisfies ReplayReaderMessage);
  }
}

/** One read-only connection for `read`, closed after it. */
async function withMirror(read: (m: MirrorStore) => Promise<void>): Promise<void> {
  const mirror = await openMirrorStore(data.mirrorPath, { readonly: true, poolSize: 1 });
  try {
    await read(mirror);
  } finally {
    await mirror.close();
  }
}

await Promise.all([
  stream('contracts', () =>
    data.contracts === false ? postBatch({ kind: 'contracts-done' }) : withMirror(readBatches),
  ),
  stream('observations', () => withMirror(readObservations)),
]);
// nothing keeps the thread alive once done: the acknowledgement listener goes
port.removeAllListeners('message');
