/**
 * A `replay` verification worker thread (docs/decisions/mirror.md, "replay workers"): loads the
 * type environment once from the same files as the main thread (and opens the mirror read-only
 * when given one, to read the key ranges it is sent), then answers each batch message
 * with the per-contract results of ./replay-contract.ts, in batch order. A failure to start or
 * an exception on a batch is posted back as an error message, never swallowed. It always runs
 * compiled (dist/run/replay-worker.js) with plain node: see ./replay-pool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ReserveProfile } from '../core/proof/profile.js';
import { loadTypesOrDefault } from '../io/files/default-types.js';
import { type ContractBatch, openMirrorStore } from '../io/store/index.js';
import { packReplayResults, replayContractBatch } from './replay-contract.js';
import type { ReplayWorkerData, ReplayWorkerReply, ReplayWorkerRequest } from './replay-pool.js';

const port = parentPort;
if (port === null) throw new Error('replay-worker.js must run as a worker thread');
const data = workerData as ReplayWorkerData;
const profile: ReserveProfile = data.profile;
const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

try {
  const types = await loadTypesOrDefault({
    typeFiles: data.typeFiles,
    dars: data.dars,
    ...(data.cwd === undefined ? {} : { cwd: data.cwd }),
  });
  // large replays: this worker reads its batches from its own read-only connection
  const mirror =
    data.mirrorPath === undefined
      ? null
      : await openMirrorStore(data.mirrorPath, { readonly: true, poolSize: 1 });
  port.on('message', async (req: ReplayWorkerRequest) => {
    let reply: ReplayWorkerReply;
    try {
      let batch: ContractBatch;
      if ('batch' in req) batch = req.batch;
      else if (mirror === null) throw new Error('no mirror to read a key range from');
      else batch = await mirror.loadContractBatch(req.keys);
      reply = {
        kind: 'results',
        id: req.id,
        results: packReplayResults(replayContractBatch(batch, types, profile)),
        ...('batch' in req
          ? {}
          : {
              contractIds: batch.contractIds,
              poolIds: batch.poolIds,
              contractKeys: batch.contractKeys,
            }),
      };
    } catch (e) {
      reply = { kind: 'error', id: req.id, message: message(e) };
    }
    port.postMessage(
      reply,
      reply.kind === 'results'
        ? [
            reply.results.proven.buffer as ArrayBuffer,
            reply.results.createdAtMicros.buffer as ArrayBuffer,
            reply.results.templateIndex.buffer as ArrayBuffer,
          ]
        : [],
    );
  });
  port.postMessage({ kind: 'ready' } satisfies ReplayWorkerReply);
} catch (e) {
  port.postMessage({ kind: 'error', id: null, message: message(e) } satisfies ReplayWorkerReply);
}
