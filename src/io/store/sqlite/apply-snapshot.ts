/**
 * Recording one ApiSnapshot into a SQLite mirror in ONE immediate transaction (docs/decisions/mirror.md
 * "crash safety"): the SQLite applier of ../plan/snapshot-plan.ts. It reads what the plan needs —
 * the contract rows of the snapshot's contract IDs (a contract the archive holds is revived into
 * the rows first, ../archive.ts) and the bodies of the latest earlier snapshot that kept its raw
 * responses (an unchanged response costs no new body, and no index by digest is maintained: schema
 * 8) — and writes the plan's rows: contract keys one past the highest (schema 5), blobs deflated
 * with their pool's dictionary (../blob-codec.ts), digests as bytes (../hex-columns.ts), then the
 * incremental history (./apply-history.ts).
 */
import type { ApiSnapshot } from '../../../core/wire/index.js';
import { readArchivedMaxContractKey, reviveArchivedContracts } from '../archive.js';
import { encodeStoredForm } from '../blob-codec.js';
import { decodeHexColumn, encodeHexColumn } from '../hex-columns.js';
import { insertRows, writeMirror } from '../mirror-db.js';
import type { Mirror } from '../open-mirror.js';
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
  OBSERVATION_COLUMNS,
  RESPONSE_COLUMNS,
  SNAPSHOT_COLUMNS,
  TEMPLATE_COLUMNS,
  toVerificationValues,
  withColumns,
} from '../row-columns.js';
import { TEMPLATE_KEYS_SQL, toTemplateKeyMap } from '../template-keys.js';
import type { ContractVerifications, RecordSnapshotResult } from '../types.js';
import { updateHistoryState } from './apply-history.js';

/**
 * Writes `snapshot` (and the verification of its contracts) into the mirror; throws StoreError
 * STORE_WRITE_FAILED after rolling back if anything fails. Returns what was recorded.
 */
export function recordSnapshot(
  mirror: Mirror,
  snapshot: ApiSnapshot,
  verifications: ContractVerifications = new Map(),
  options: RecordSnapshotOptions = {},
): RecordSnapshotResult {
  const snapshotKey = computeSnapshotKey(snapshot);
  return writeMirror(
    mirror,
    (path) => `recording the snapshot into "${path}" failed and was rolled back`,
    (db): RecordSnapshotResult => {
      const existing = db
        .prepare('SELECT id, pool_count FROM snapshots WHERE snapshot_key = ?')
        .get(snapshotKey) as { id: number; pool_count: number } | undefined;
      if (existing !== undefined) return toExistingResult(existing.id, existing.pool_count);
      const attempt = computeFailedAttempt(
        snapshot,
        Boolean(db.prepare(MIRROR_KNOWS_POOLS_SQL).pluck().get()),
      );
      if (attempt !== null) {
        const had = db
          .prepare('SELECT id FROM failed_attempts WHERE attempt_key = ?')
          .pluck()
          .get(snapshotKey);
        if (had !== undefined) return toFailedAttemptResult(had, attempt.reason, false);
        const row = computeFailedAttemptRow(snapshotKey, snapshot, attempt, (options.now ?? Date.now)());
        const [id] = insertRows(db, FAILED_ATTEMPT_COLUMNS, [row]);
        return toFailedAttemptResult(id, attempt.reason, true);
      }

      const ids = readPlanContractIds(snapshot);
      reviveArchivedContracts(db, ids);
      const getStored = db
        .prepare(
          'SELECT ckey, verification_status, fields_source, blob_sha256, ledger_created_at FROM contracts WHERE contract_id = ?',
        )
        .raw(true);
      const stored = new Map<string, StoredContract>();
      const keys = new Map<string, number>();
      for (const id of ids) {
        const r = getStored.get(id) as [number, string, string, unknown, string] | undefined;
        if (r === undefined) continue;
        keys.set(id, r[0]);
        stored.set(id, {
          status: r[1],
          fieldsSource: r[2],
          blobSha256: decodeHexColumn(r[3]) ?? '',
          ledgerCreatedAt: r[4],
        });
      }
      const bodyIds = new Map<string, number>(
        db
          .prepare(
            `SELECT body_sha256, body_id FROM responses
           WHERE snapshot_id = (SELECT max(snapshot_id) FROM responses)`,
          )
          .raw(true)
          .all() as [string, number][],
      );
      const plan = computeRecordingPlan(snapshot, snapshotKey, verifications, options, {
        stored,
        reusableBodies: new Set(bodyIds.keys()),
      });

      const s = plan.snapshot;
      const [snapshotId = 0] = insertRows(db, SNAPSHOT_COLUMNS, [s]);
      const seenMs = snapshot.startedAtMs;
      const at = { snapshotId, seenMs };
      const bodyRowIds = insertRows(db, BODY_COLUMNS, plan.bodies);
      plan.bodies.forEach((b, i) => {
        bodyIds.set(b.sha256, bodyRowIds[i] ?? 0);
      });
      insertRows(
        db,
        withColumns(RESPONSE_COLUMNS, 'body_id bigint'),
        plan.responses.map((r) => ({ ...r, ...at, bodyId: bodyIds.get(r.sha256) })),
      );

      // blobs: deflated with their pool's dictionary, the first blob stored for the pool
      const getDict = db.prepare('SELECT id, dict FROM blob_dictionaries WHERE pool_id = ?');
      const insDict = db.prepare('INSERT INTO blob_dictionaries (pool_id, dict) VALUES (?, ?)');
      const dicts = new Map<string, { id: number; dict: Buffer }>();
      for (const [poolId, b64] of plan.dictionaryCandidates) {
        const dict = Buffer.from(b64, 'base64');
        const d = getDict.get(poolId) as { id: number; dict: Buffer } | undefined;
        dicts.set(poolId, d ?? { id: Number(insDict.run(poolId, dict).lastInsertRowid), dict });
      }
      insertRows(db, TEMPLATE_COLUMNS, plan.templates, 'ON CONFLICT DO NOTHING');
      const templateKeys = toTemplateKeyMap(db.prepare(TEMPLATE_KEYS_SQL).raw(true).all() as unknown[][]);
      const maxKey = Number(db.prepare('SELECT coalesce(max(ckey), 0) FROM contracts').pluck().get());
      const firstKey = Math.max(maxKey, readArchivedMaxContractKey(db)) + 1;
      const contracts = plan.newContracts.map((c, i) => {
        keys.set(c.contractId, firstKey + i);
        const { blob, blobDict } = encodeStoredForm(c.blobBase64, dicts.get(c.poolId));
        const [blobSha256, updateId] = [encodeHexColumn(c.blobSha256), encodeHexColumn(c.updateId)];
        const templateKey = templateKeys.get(toTemplateKey(c.template));
        return { ...c, ...at, blob, blobDict, templateKey, blobSha256, updateId, ckey: firstKey + i };
      });
      insertRows(db, withColumns(CONTRACT_COLUMNS, 'ckey bigint'), contracts);
      const touch = db.prepare(
        'UPDATE contracts SET last_seen_snapshot = ?, last_seen_ms = max(last_seen_ms, ?) WHERE contract_id = ?',
      );
      for (const id of plan.seenContracts) touch.run(snapshotId, seenMs, id);
      const settle = db.prepare(buildVerificationUpdateSql(() => '?'));
      for (const u of plan.verificationUpdates) settle.run(...toVerificationValues(u));
      insertRows(
        db,
        OBSERVATION_COLUMNS,
        plan.observations.map((o) => ({
          ...o,
          ...at,
          contractKey: o.contractId === null ? null : (keys.get(o.contractId) ?? null),
        })),
      );
      updateHistoryState(
        mirror,
        snapshotId,
        plan.verificationUpdates.map((u) => u.contractId),
      );
      options.beforeCommit?.();
      const newContracts = plan.newContracts.map((c) => c.contractId);
      return toRecordedResult(snapshotId, s.poolCount, newContracts, ids.length);
    },
  );
}
