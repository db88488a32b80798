/**
 * Recording one ApiSnapshot into a PostgreSQL mirror in ONE transaction: the PostgreSQL applier of
 * ../plan/snapshot-plan.ts, the same rows as ../sqlite/apply-snapshot.ts. Bodies are
 * content-addressed (the plan leaves out the digests the mirror holds), contract keys are an
 * identity, digests TEXT, blobs deflated with their pool's dictionary (../blob-codec.ts); then the
 * incremental history (./apply-history.ts). Several watchers may write one database: the
 * transaction first takes the mirror's advisory write lock, so snapshots commit one after another
 * in id order (what the incremental history needs) and what the plan reads is current, while
 * fetching and verifying — the slow part — run in parallel. Readers never wait (MVCC). A watcher
 * killed mid-write leaves nothing: the server rolls the transaction back when its connection drops.
 * Rows are sent as arrays (`unnest`), a handful of statements per snapshot.
 */
import type { ApiSnapshot } from '../../../core/wire/index.js';
import { StoreError } from '../../../errors/store.js';
import { encodeStoredBlob } from '../blob-codec.js';
import { computeSnapshotPlan, readPlanContractIds, type StoredContract } from '../plan/snapshot-plan.js';
import {
  computeBlobDigest,
  computeSnapshotKey,
  type RecordSnapshotOptions,
  toBuffer,
  toVerificationMap,
} from '../record-snapshot.js';
import type { ContractVerifications, RecordSnapshotResult } from '../types.js';
import { updatePgHistoryState } from './apply-history.js';
import {
  MIRROR_WRITE_LOCK,
  type PgMirror,
  queryRows,
  toStoreError,
  withPgTransaction,
} from './connection.js';

/** `unnest($from::t1[], …)`: the column arrays of a set-based insert, placeholders from `from` on. */
function unnestSql(types: readonly string[], from = 1): string {
  return `unnest(${types.map((t, i) => `$${i + from}::${t}[]`).join(', ')})`;
}
const columns = <T>(rows: readonly T[], fns: readonly ((r: T) => unknown)[]): unknown[][] =>
  fns.map((f) => rows.map(f));

/** Writes `snapshot` into the mirror (see the module comment); throws StoreError STORE_WRITE_FAILED. */
export async function recordPgSnapshot(
  h: PgMirror,
  snapshot: ApiSnapshot,
  verifications: ContractVerifications = new Map(),
  options: RecordSnapshotOptions = {},
): Promise<RecordSnapshotResult> {
  if (h.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${h.path}" was opened read-only`);
  const snapshotKey = computeSnapshotKey(snapshot);
  try {
    return await withPgTransaction(h, 'BEGIN', async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIRROR_WRITE_LOCK]);
      const ex = (
        await queryRows(c, 'SELECT id, pool_count FROM snapshots WHERE snapshot_key = $1', [snapshotKey])
      )[0];
      if (ex !== undefined)
        return {
          snapshotId: Number(ex[0]),
          created: false,
          pools: Number(ex[1]),
          newContracts: [],
          contracts: 0,
        };

      const ids = readPlanContractIds(snapshot);
      const stored = new Map<string, StoredContract>();
      const keys = new Map<string, unknown>();
      for (const r of await queryRows(
        c,
        `SELECT contract_id, ckey, verification_status, fields_source, blob_sha256, ledger_created_at FROM contracts
         WHERE contract_id = ANY($1::text[])`,
        [ids],
      )) {
        keys.set(String(r[0]), r[1]);
        stored.set(String(r[0]), {
          status: String(r[2]),
          fieldsSource: String(r[3]),
          blobSha256: String(r[4]),
          ledgerCreatedAt: String(r[5]),
        });
      }
      const digests = [...new Set(snapshot.raw.map((r) => r.sha256))];
      const held = await queryRows(c, 'SELECT sha256 FROM bodies WHERE sha256 = ANY($1::text[])', [digests]);
      const plan = computeSnapshotPlan({
        snapshot,
        snapshotKey,
        recordedAtMs: (options.now ?? Date.now)(),
        verifications: toVerificationMap(verifications),
        blobDigest: computeBlobDigest,
        stored,
        reusableBodies: new Set(held.map((r) => String(r[0]))),
      });

      const s = plan.snapshot;
      const snapshotId = Number(
        (
          await queryRows(
            c,
            `INSERT INTO snapshots (snapshot_key, base_url, started_at_ms, finished_at_ms, recorded_at_ms, pool_count,
               new_contracts, failed_sections) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
            [
              s.snapshotKey,
              s.baseUrl,
              s.startedAtMs,
              s.finishedAtMs,
              s.recordedAtMs,
              s.poolCount,
              s.newContracts,
              s.failedSections,
            ],
          )
        )[0]?.[0],
      );
      if (plan.bodies.length > 0)
        await c.query(
          `INSERT INTO bodies (sha256, size, body) SELECT * FROM ${unnestSql(['text', 'int', 'bytea'])}`,
          columns(plan.bodies, [(b) => b.sha256, (b) => b.size, (b) => toBuffer(b.body)]),
        );
      if (plan.responses.length > 0)
        await c.query(
          `INSERT INTO responses (snapshot_id, seq, method, url, request_body, status, content_type, body_sha256,
             started_at_ms, duration_ms)
           SELECT $1, * FROM ${unnestSql(['int', 'text', 'text', 'text', 'int', 'text', 'text', 'bigint', 'bigint'], 2)}`,
          [
            snapshotId,
            ...columns(plan.responses, [
              (r) => r.seq,
              (r) => r.method,
              (r) => r.url,
              (r) => r.requestBody,
              (r) => r.status,
              (r) => r.contentType,
              (r) => r.bodySha256,
              (r) => r.startedAtMs,
              (r) => r.durationMs,
            ]),
          ],
        );

      const seenMs = snapshot.startedAtMs;
      const fresh = plan.newContracts;
      if (fresh.length > 0) {
        // blobs: deflated with their pool's dictionary (the first blob stored for the pool)
        const candidates = [...plan.dictionaryCandidates];
        await c.query(
          `INSERT INTO blob_dictionaries (pool_id, dict) SELECT * FROM ${unnestSql(['text', 'bytea'])}
           ON CONFLICT (pool_id) DO NOTHING`,
          [candidates.map((d) => d[0]), candidates.map((d) => Buffer.from(d[1], 'base64'))],
        );
        const dicts = new Map<string, { id: unknown; dict: Buffer }>();
        for (const r of await queryRows(
          c,
          'SELECT pool_id, id, dict FROM blob_dictionaries WHERE pool_id = ANY($1::text[])',
          [candidates.map((d) => d[0])],
        ))
          dicts.set(String(r[0]), { id: r[1], dict: r[2] as Buffer });
        // template strings → their key in the lookup table (schema 6)
        const tkey = (t: (typeof fresh)[number]['template']): string =>
          [t.package_id, t.package_name, t.module_name, t.entity_name].join('\u0000');
        const templates = [...new Map(fresh.map((f) => [tkey(f.template), f.template])).values()];
        const tcols = columns(templates, [
          (t) => t.package_id,
          (t) => t.package_name,
          (t) => t.module_name,
          (t) => t.entity_name,
        ]);
        await c.query(
          `INSERT INTO templates (package_id, package_name, module_name, entity_name)
           SELECT * FROM ${unnestSql(['text', 'text', 'text', 'text'])} ON CONFLICT DO NOTHING`,
          tcols,
        );
        const templateKeys = new Map<string, unknown>();
        for (const r of await queryRows(
          c,
          `SELECT t.id, t.package_id, t.package_name, t.module_name, t.entity_name FROM templates t
           JOIN ${unnestSql(['text', 'text', 'text', 'text'])} AS u (p, n, m, e)
             ON t.package_id = u.p AND t.package_name = u.n AND t.module_name = u.m AND t.entity_name = u.e`,
          tcols,
        ))
          templateKeys.set(r.slice(1, 5).map(String).join('\u0000'), r[0]);
        const stored = fresh.map((f) => {
          const blob = Buffer.from(f.blobBase64, 'base64');
          const d = dicts.get(f.poolId);
          const packed = d === undefined ? null : encodeStoredBlob(blob, d.dict);
          return { blob: packed ?? blob, dict: packed === null ? null : (d?.id ?? null) };
        });
        const rows = await queryRows(
          c,
          `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b,
             total_lp_supply, ledger_created_at, created_at_ms, created_at_micros, fields_source, verification_status,
             verification_reason, blob_dict, first_seen_snapshot, last_seen_snapshot, first_seen_ms, last_seen_ms)
           SELECT u.*, $17::bigint, $17::bigint, $18::bigint, $18::bigint FROM ${unnestSql([
             'text',
             'text',
             'bytea',
             'text',
             'text',
             'bigint',
             'text',
             'text',
             'text',
             'text',
             'bigint',
             'bigint',
             'text',
             'text',
             'text',
             'bigint',
           ])} AS u RETURNING contract_id, ckey`,
          [
            ...columns(
              fresh.map((f, i) => [f, i] as const),
              [
                ([f]) => f.contractId,
                ([f]) => f.poolId,
                ([, i]) => stored[i]?.blob,
                ([f]) => f.blobSha256,
                ([f]) => f.updateId,
                ([f]) => templateKeys.get(tkey(f.template)) ?? null,
                ([f]) => f.reserveA,
                ([f]) => f.reserveB,
                ([f]) => f.totalLpSupply,
                ([f]) => f.ledgerCreatedAt,
                ([f]) => f.createdAtMs,
                ([f]) => f.createdAtMicros.toString(),
                ([f]) => f.fieldsSource,
                ([f]) => f.status,
                ([f]) => f.reason,
                ([, i]) => stored[i]?.dict ?? null,
              ],
            ),
            snapshotId,
            seenMs,
          ],
        );
        for (const r of rows) keys.set(String(r[0]), r[1]);
      }
      if (plan.seenContracts.length > 0)
        await c.query(
          `UPDATE contracts SET last_seen_snapshot = $1, last_seen_ms = GREATEST(last_seen_ms, $2)
           WHERE contract_id = ANY($3::text[])`,
          [snapshotId, seenMs, plan.seenContracts],
        );
      for (const u of plan.verificationUpdates)
        await c.query(
          `UPDATE contracts SET verification_status = $2, verification_reason = $3, fields_source = $4,
             reserve_a = $5, reserve_b = $6, total_lp_supply = $7, created_at_ms = $8, created_at_micros = $9
           WHERE contract_id = $1`,
          [
            u.contractId,
            u.status,
            u.reason,
            u.fieldsSource,
            u.reserveA,
            u.reserveB,
            u.totalLpSupply,
            u.createdAtMs,
            u.createdAtMicros.toString(),
          ],
        );
      if (plan.observations.length > 0)
        await c.query(
          `INSERT INTO observations (snapshot_id, observed_at_ms, pool_id, contract_key, state_contract_id, symbol,
             reserve_a, reserve_b, price, tvl_cc, fee_rate, total_lp_supply, ledger_created_at, ledger_created_at_ms,
             proof_reserve_a, proof_reserve_b, blob_sha256, state_is_contract)
           SELECT $17::bigint, $18::bigint, u.* FROM ${unnestSql([
             'text',
             'bigint',
             'text',
             'text',
             'text',
             'text',
             'text',
             'text',
             'text',
             'text',
             'text',
             'bigint',
             'text',
             'text',
             'text',
             'boolean',
           ])} AS u`,
          [
            ...columns(plan.observations, [
              (o) => o.poolId,
              (o) => (o.contractId === null ? null : (keys.get(o.contractId) ?? null)),
              (o) => o.stateContractId,
              (o) => o.symbol,
              (o) => o.reserveA,
              (o) => o.reserveB,
              (o) => o.price,
              (o) => o.tvlCc,
              (o) => o.feeRate,
              (o) => o.totalLpSupply,
              (o) => o.ledgerCreatedAt,
              (o) => o.ledgerCreatedAtMs,
              (o) => o.proofReserveA,
              (o) => o.proofReserveB,
              (o) => o.blobSha256,
              (o) => o.stateIsContract,
            ]),
            snapshotId,
            seenMs,
          ],
        );
      await updatePgHistoryState(
        h,
        c,
        snapshotId,
        plan.verificationUpdates.map((u) => u.contractId),
      );
      await options.beforeCommit?.();
      const newContracts = fresh.map((f) => f.contractId);
      return { snapshotId, created: true, pools: s.poolCount, newContracts, contracts: ids.length };
    });
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw toStoreError(h, 'STORE_WRITE_FAILED', 'recording the snapshot (rolled back)', e);
  }
}
