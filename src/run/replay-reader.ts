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
import { isReserveAuditError } from '../errors/index.js';
import { type MirrorStore, openMirrorStore } from '../io/store/index.js';
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

/** The contract batches, in order, at most READ_AHEAD unacknowledged. */
async function readBatches(mirror: MirrorStore): Promise<void> {
  for await (const batch of mirror.iterateContractBatches(data.range, data.batchSize))
    await postBatch({ kind: 'batch', batch }, [
      batch.blobs.buffer as ArrayBuffer,
      batch.ends.buffer as ArrayBuffer,
    ]);
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
  stream('contracts', () => withMirror(readBatches)),
  stream('observations', () => withMirror(readObservations)),
]);
// nothing keeps the thread alive once done: the acknowledgement listener goes
port.removeAllListeners('message');
