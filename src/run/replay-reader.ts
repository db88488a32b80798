/**
 * The `replay` reader thread (docs/bench/audit.md "A reader thread"): opens the mirror read-only and
 * streams, in replay order, the contract batches (each batch's blobs transferred, not copied) and
 * then the observations of the period as key rows, so that reading SQLite and inflating the blobs
 * run on another core while the main thread verifies. At most READ_AHEAD messages are unacknowledged
 * (memory stays bounded). A failure is posted back as an error message carrying the typed error's
 * code, never swallowed. It always runs compiled (dist/run/replay-reader.js) with plain node.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isReserveAuditError } from '../errors/index.js';
import { openMirrorStore } from '../io/store/index.js';
import {
  ACK_EVERY,
  READ_AHEAD,
  type ReplayReaderData,
  type ReplayReaderMessage,
} from './replay-read-thread.js';

const port = parentPort;
if (port === null) throw new Error('replay-reader.js must run as a worker thread');
const data = workerData as ReplayReaderData;

let credits = READ_AHEAD;
let wake: (() => void) | null = null;
port.on('message', () => {
  credits += ACK_EVERY;
  wake?.();
  wake = null;
});
const post = async (m: ReplayReaderMessage, transfer: ArrayBuffer[] = []): Promise<void> => {
  while (credits <= 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  port.postMessage(m, transfer);
};

try {
  const mirror = await openMirrorStore(data.mirrorPath, { readonly: true, poolSize: 1 });
  try {
    for await (const batch of mirror.iterateContractBatches(data.range, data.batchSize))
      await post({ kind: 'batch', batch }, [
        batch.blobs.buffer as ArrayBuffer,
        batch.ends.buffer as ArrayBuffer,
      ]);
    await post({ kind: 'contracts-done' });
    for await (const rows of mirror.iterateObservationKeyPages(data.observations))
      await post({ kind: 'observations', rows });
    await post({ kind: 'done' });
  } finally {
    await mirror.close();
  }
} catch (e) {
  port.postMessage({
    kind: 'error',
    name: e instanceof Error ? e.name : 'Error',
    code: isReserveAuditError(e) ? e.code : null,
    message: isReserveAuditError(e) ? e.shortMessage : e instanceof Error ? e.message : String(e),
  } satisfies ReplayReaderMessage);
}
// nothing keeps the thread alive once done: the acknowledgement listener goes
port.removeAllListeners('message');
