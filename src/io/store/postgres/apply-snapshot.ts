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
import { encodeStoredForm } from '../blob-codec.js';
import { computeFailedAttempt } from '../plan/failed-attempt.js';
import { readPlanContractIds, type StoredContract, toTemplateKey } from '../plan/snapshot-plan.js';
import {
  computeFailedAttemptRow,
  computeRecordingPlan,
  computeSnapshotKey,
  FAILED_ATTEMPT_COLUMNS,
  MIRROR_KNOWS_POOLS_SQL,
  type RecordSnapshotOptions,
  toExistingResult,
  toFailedAttemptResult,
  toRecordedResult,
} from '../record-snapshot.js';
import {
  BODY_COLUMNS,
  buildVerificationUpdateSql,
  CONTRACT_COLUMNS,
  DICTIONARY_COLUMNS,
  OBSERVATION_COLUMNS,
  RESPONSE_COLUMNS,
  SNAPSHOT_COLUMNS,
  TEMPLATE_COLUMNS,
  toVerificationValues,
} from '../row-columns.js';
import { TEMPLATE_KEYS_SQL, toTemplateKeyMap } from '../template-keys.js';
import type { ContractVerifications, RecordSnapshotResult } from '../types.js';
import { updatePgHistoryState } from './apply-history.js';
import { insertPgRows, type PgMirror, queryRows, queryValue, writePgMirror } from './connection.js';

/** Writes `snapshot` into the mirror (see the module comment); throws StoreError STORE_WRITE_FAILED. */
export async function recordPgSnapshot(
  h: PgMirror,
  snapshot: ApiSnapshot,
  verifications: ContractVerifications = new Map(),
  options: RecordSnapshotOptions = {},
): Promise<RecordSnapshotResult> {
  const snapshotKey = computeSnapshotKey(snapshot);
  return writePgMirror(h, 'recording the snapshot (rolled back)', 'locked', async (c) => {
    const ex = (
      await queryRows(c, 'SELECT id, pool_count FROM snapshots WHERE snapshot_key = $1', [snapshotKey])
    )[0];
    if (ex !== undefined) return toExistingResult(ex[0], ex[1]);
    const knows = (await queryValue(c, MIRROR_KNOWS_POOLS_SQL)) === true;
    const attempt = computeFailedAttempt(snapshot, knows);
    if (attempt !== null) {
      const had = (
        await queryRows(c, 'SELECT id FROM failed_attempts WHERE attempt_key = $1', [snapshotKey])
      )[0];
      if (had !== undefined) return toFailedAttemptResult(had[0], attempt.reason, false);
      const row = computeFailedAttemptRow(snapshotKey, snapshot, attempt, (options.now ?? Date.now)());
      const [ins] = await insertPgRows(c, FAILED_ATTEMPT_COLUMNS, [row], 'RETURNING id');
      return toFailedAttemptResult(ins?.[0], attempt.reason, true);
    }

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
    const plan = computeRecordingPlan(snapshot, snapshotKey, verifications, options, {
      stored,
      reusableBodies: new Set(held.map((r) => String(r[0]))),
    });

    const s = plan.snapshot;
    const snapshotId = Number((await insertPgRows(c, SNAPSHOT_COLUMNS, [s], 'RETURNING id'))[0]?.[0]);
    const seenMs = snapshot.startedAtMs;
    const at = { snapshotId, seenMs };
    await insertPgRows(c, BODY_COLUMNS, plan.bodies);
    await insertPgRows(
      c,
      RESPONSE_COLUMNS,
      plan.responses.map((r) => ({ ...r, ...at })),
    );

    const fresh = plan.newContracts;
    if (fresh.length > 0) {
      // blobs: deflated with their pool's dictionary (the first blob stored for the pool)
      const candidates = [...plan.dictionaryCandidates].map(([poolId, b64]) => ({
        poolId,
        dict: Buffer.from(b64, 'base64'),
      }));
      await insertPgRows(c, DICTIONARY_COLUMNS, candidates, 'ON CONFLICT (pool_id) DO NOTHING');
      const dicts = new Map<string, { id: unknown; dict: Buffer }>();
      for (const r of await queryRows(
        c,
        'SELECT pool_id, id, dict FROM blob_dictionaries WHERE pool_id = ANY($1)',
        [candidates.map((d) => d.poolId)],
      ))
        dicts.set(String(r[0]), { id: r[1], dict: r[2] as Buffer });
      // template strings → their key in the lookup table (schema 6)
      await insertPgRows(c, TEMPLATE_COLUMNS, plan.templates, 'ON CONFLICT DO NOTHING');
      const templateKeys = toTemplateKeyMap(await queryRows(c, TEMPLATE_KEYS_SQL));
      const contracts = fresh.map((f) => {
        const { blob, blobDict } = encodeStoredForm(f.blobBase64, dicts.get(f.poolId));
        const templateKey = templateKeys.get(toTemplateKey(f.template)) ?? null;
        return { ...f, ...at, blob, blobDict, templateKey };
      });
      for (const r of await insertPgRows(c, CONTRACT_COLUMNS, contracts, 'RETURNING contract_id, ckey'))
        keys.set(String(r[0]), r[1]);
    }
    if (plan.seenContracts.length > 0)
      await c.query(
        `UPDATE contracts SET last_seen_snapshot = $1, last_seen_ms = GREATEST(last_seen_ms, $2)
           WHERE contract_id = ANY($3::text[])`,
        [snapshotId, seenMs, plan.seenContracts],
      );
    for (const u of plan.verificationUpdates)
      await c.query(
        buildVerificationUpdateSql((n) => `$${n}`),
        toVerificationValues(u),
      );
    const observations = plan.observations.map((o) => ({
      ...o,
      ...at,
      contractKey: o.contractId === null ? null : (keys.get(o.contractId) ?? null),
    }));
    await insertPgRows(c, OBSERVATION_COLUMNS, observations);
    await updatePgHistoryState(
      h,
      c,
      snapshotId,
      plan.verificationUpdates.map((u) => u.contractId),
    );
    await options.beforeCommit?.();
    const newContracts = fresh.map((f) => f.contractId);
    return toRecordedResult(snapshotId, s.poolCount, newContracts, ids.length);
  });
}
