/**
 * The distributed replay queue on PostgreSQL (../replay-runs.ts; docs/mirror.md "Distributed
 * replay"): `replay_runs` (one row per run) and `replay_batches` (one row per key range of at
 * most batch-size contracts, with its status, claim, lease and results). A claim is one statement:
 * the first batch of an open run that is pending, or claimed with an expired lease, locked with
 * `FOR UPDATE SKIP LOCKED` (two workers never get the same batch, and never wait for each other),
 * set to claimed with a fresh token and `lease_until = clock_timestamp() + lease` — the database's
 * clock, so the workers' clocks do not matter. Results are stored only while the claim is still
 * the batch's (same token), so a worker that lost its lease cannot overwrite a batch another
 * worker took over (both would store the same results anyway).
 */
import { randomUUID } from 'node:crypto';
import type { ContractKeyRange } from '../contract-batches.js';
import type {
  DistributedReplay,
  ReplayBatchClaim,
  ReplayBatchResults,
  ReplayRunCreated,
  ReplayRunProgress,
  ReplayRunSpec,
} from '../replay-runs.js';
import { type PgMirror, queryRows, toStoreError, withPgTransaction } from './connection.js';
import { iteratePgContractKeyRanges } from './contract-reads.js';

async function guarded<T>(h: PgMirror, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toStoreError(h, 'STORE_WRITE_FAILED', what, e);
  }
}

/** The distributed replay queue of a PostgreSQL mirror. */
export function createPgReplayQueue(h: PgMirror): DistributedReplay {
  return {
    createReplayRun: (spec: ReplayRunSpec): Promise<ReplayRunCreated> =>
      guarded(h, 'creating a replay run', async () => {
        const ranges: ContractKeyRange[] = [];
        for await (const r of iteratePgContractKeyRanges(h, spec.range, spec.batchSize)) ranges.push(r);
        const contracts = ranges.reduce((s, r) => s + r.count, 0);
        return await withPgTransaction(h, 'BEGIN', async (c) => {
          const run = await queryRows(
            c,
            `INSERT INTO replay_runs (status, from_ms, to_ms, batch_size, lease_ms, profile_json, batches, contracts)
             VALUES ('open', $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
            [
              spec.range.fromMs ?? null,
              spec.range.toMs ?? null,
              spec.batchSize,
              spec.leaseMs,
              spec.profileJson,
              ranges.length,
              contracts,
            ],
          );
          const runId = Number(run[0]?.[0]);
          if (ranges.length > 0)
            await c.query(
              `INSERT INTO replay_batches (run_id, seq, first_ms, first_contract_id, last_ms, last_contract_id, contracts,
                 status)
               SELECT $1, u.*, 'pending' FROM unnest($2::int[], $3::bigint[], $4::text[], $5::bigint[], $6::text[],
                 $7::int[]) AS u`,
              [
                runId,
                ranges.map((_r, i) => i),
                ranges.map((r) => r.first[0]),
                ranges.map((r) => r.first[1]),
                ranges.map((r) => r.last[0]),
                ranges.map((r) => r.last[1]),
                ranges.map((r) => r.count),
              ],
            );
          return { runId, batches: ranges.length, contracts };
        });
      }),

    claimReplayBatch: (worker: string, runId?: number): Promise<ReplayBatchClaim | null> =>
      guarded(h, 'claiming a replay batch', async () => {
        const token = randomUUID();
        const rows = await queryRows(
          h.pool,
          `UPDATE replay_batches b SET status = 'claimed', claim_token = $1, worker = $2, attempts = b.attempts + 1,
             lease_until = clock_timestamp() + make_interval(secs => r.lease_ms / 1000.0)
           FROM replay_runs r
           WHERE r.id = b.run_id AND (b.run_id, b.seq) = (
             SELECT x.run_id, x.seq FROM replay_batches x JOIN replay_runs xr ON xr.id = x.run_id
             WHERE xr.status = 'open' AND ($3::bigint IS NULL OR x.run_id = $3)
               AND (x.status = 'pending' OR (x.status = 'claimed' AND x.lease_until < clock_timestamp()))
             ORDER BY x.run_id, x.seq LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
           RETURNING b.run_id, b.seq, b.first_ms, b.first_contract_id, b.last_ms, b.last_contract_id, b.contracts,
             r.profile_json`,
          [token, worker, runId ?? null],
        );
        const r = rows[0];
        if (r === undefined) return null;
        return {
          runId: Number(r[0]),
          seq: Number(r[1]),
          keys: {
            first: [Number(r[2]), String(r[3])],
            last: [Number(r[4]), String(r[5])],
            count: Number(r[6]),
          },
          token,
          profileJson: String(r[7]),
        };
      }),

    recordReplayBatchResults: (claim: ReplayBatchClaim, results: string): Promise<boolean> =>
      guarded(h, 'recording replay batch results', async () => {
        const r = await h.pool.query(
          `UPDATE replay_batches SET status = 'done', results = $4, finished_at = clock_timestamp(), lease_until = NULL
           WHERE run_id = $1 AND seq = $2 AND claim_token = $3 AND status = 'claimed'`,
          [claim.runId, claim.seq, claim.token, results],
        );
        return (r.rowCount ?? 0) === 1;
      }),

    readReplayRunProgress: (runId: number): Promise<ReplayRunProgress> =>
      guarded(h, 'reading replay progress', async () => {
        const rows = await queryRows(
          h.pool,
          `SELECT r.status, r.batches,
             count(*) FILTER (WHERE b.status = 'done'),
             count(*) FILTER (WHERE b.status = 'claimed'),
             count(*) FILTER (WHERE b.status = 'pending'),
             count(*) FILTER (WHERE b.status = 'claimed' AND b.lease_until < clock_timestamp()),
             count(DISTINCT b.worker) FILTER (WHERE b.status = 'done')
           FROM replay_runs r LEFT JOIN replay_batches b ON b.run_id = r.id
           WHERE r.id = $1 GROUP BY r.id`,
          [runId],
        );
        const r = rows[0];
        if (r === undefined) throw new Error(`no replay run ${runId}`);
        return {
          status: r[0] as ReplayRunProgress['status'],
          batches: Number(r[1]),
          done: Number(r[2]),
          claimed: Number(r[3]),
          pending: Number(r[4]),
          expired: Number(r[5]),
          workers: Number(r[6]),
        };
      }),

    readOpenReplayRuns: (): Promise<number[]> =>
      guarded(h, 'listing replay runs', async () =>
        (await queryRows(h.pool, "SELECT id FROM replay_runs WHERE status = 'open' ORDER BY id")).map((r) =>
          Number(r[0]),
        ),
      ),

    iterateReplayBatchResults: async function* (
      runId: number,
    ): AsyncGenerator<ReplayBatchResults, void, undefined> {
      let after = -1;
      for (;;) {
        const rows = await guarded(h, 'reading replay results', () =>
          queryRows(
            h.pool,
            `SELECT seq, results FROM replay_batches WHERE run_id = $1 AND seq > $2 AND status = 'done'
             ORDER BY seq LIMIT 64`,
            [runId, after],
          ),
        );
        for (const r of rows) yield { seq: Number(r[0]), results: String(r[1]) };
        const last = rows[rows.length - 1];
        if (last === undefined || rows.length < 64) return;
        after = Number(last[0]);
      }
    },

    finishReplayRun: (runId: number, status: 'done' | 'abandoned'): Promise<void> =>
      guarded(h, 'finishing a replay run', async () => {
        await h.pool.query(
          'UPDATE replay_runs SET status = $2, finished_at = clock_timestamp() WHERE id = $1',
          [runId, status],
        );
      }),
  };
}
