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
import { StoreError } from '../../../errors/store.js';
import { readArchivedMaxContractKey, reviveArchivedContracts } from '../archive.js';
import { encodeStoredBlob } from '../blob-codec.js';
import { decodeHexColumn, encodeHexColumn } from '../hex-columns.js';
import { mirrorDb } from '../mirror-db.js';
import type { Mirror } from '../open-mirror.js';
import { computeSnapshotPlan, readPlanContractIds, type StoredContract } from '../plan/snapshot-plan.js';
import {
  computeBlobDigest,
  computeSnapshotKey,
  type RecordSnapshotOptions,
  toBuffer,
  toVerificationMap,
} from '../record-snapshot.js';
import { createTemplateKeyLookup } from '../template-keys.js';
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
  if (mirror.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${mirror.path}" was opened read-only`);
  const db = mirrorDb(mirror);
  const snapshotKey = computeSnapshotKey(snapshot);
  const run = db.transaction((): RecordSnapshotResult => {
    const existing = db
      .prepare('SELECT id, pool_count FROM snapshots WHERE snapshot_key = ?')
      .get(snapshotKey) as { id: number; pool_count: number } | undefined;
    if (existing !== undefined)
      return {
        snapshotId: existing.id,
        created: false,
        pools: existing.pool_count,
        newContracts: [],
        contracts: 0,
      };

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
    const plan = computeSnapshotPlan({
      snapshot,
      snapshotKey,
      recordedAtMs: (options.now ?? Date.now)(),
      verifications: toVerificationMap(verifications),
      blobDigest: computeBlobDigest,
      stored,
      reusableBodies: new Set(bodyIds.keys()),
    });

    const s = plan.snapshot;
    const snapshotId = Number(
      db
        .prepare(
          `INSERT INTO snapshots (snapshot_key, base_url, started_at_ms, finished_at_ms, recorded_at_ms, pool_count,
             new_contracts, failed_sections) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          s.snapshotKey,
          s.baseUrl,
          s.startedAtMs,
          s.finishedAtMs,
          s.recordedAtMs,
          s.poolCount,
          s.newContracts,
          s.failedSections,
        ).lastInsertRowid,
    );
    const insBody = db.prepare('INSERT INTO bodies (sha256, size, body) VALUES (?, ?, ?)');
    for (const b of plan.bodies)
      bodyIds.set(b.sha256, Number(insBody.run(b.sha256, b.size, toBuffer(b.body)).lastInsertRowid));
    const insResp = db.prepare(
      `INSERT INTO responses (snapshot_id, seq, method, url, request_body, status, content_type, body_sha256, body_id,
         started_at_ms, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of plan.responses)
      insResp.run(
        snapshotId,
        r.seq,
        r.method,
        r.url,
        r.requestBody,
        r.status,
        r.contentType,
        r.bodySha256,
        bodyIds.get(r.bodySha256),
        r.startedAtMs,
        r.durationMs,
      );

    // blobs: deflated with their pool's dictionary, the first blob stored for the pool
    const getDict = db.prepare('SELECT id, dict FROM blob_dictionaries WHERE pool_id = ?');
    const insDict = db.prepare('INSERT INTO blob_dictionaries (pool_id, dict) VALUES (?, ?)');
    const dicts = new Map<string, { id: number; dict: Buffer }>();
    for (const [poolId, b64] of plan.dictionaryCandidates) {
      const d = getDict.get(poolId) as { id: number; dict: Buffer } | undefined;
      const dict = Buffer.from(b64, 'base64');
      dicts.set(poolId, d ?? { id: Number(insDict.run(poolId, dict).lastInsertRowid), dict });
    }
    const templateKey = createTemplateKeyLookup(db);
    let nextKey =
      Math.max(
        Number(db.prepare('SELECT coalesce(max(ckey), 0) FROM contracts').pluck().get()),
        readArchivedMaxContractKey(db),
      ) + 1;
    const insContract = db.prepare(
      `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b,
         total_lp_supply, ledger_created_at, created_at_ms, created_at_micros, fields_source, verification_status,
         verification_reason, first_seen_snapshot, last_seen_snapshot, first_seen_ms, last_seen_ms, blob_dict, ckey)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const seenMs = snapshot.startedAtMs;
    for (const c of plan.newContracts) {
      const blob = Buffer.from(c.blobBase64, 'base64');
      const d = dicts.get(c.poolId);
      const packed = d === undefined ? null : encodeStoredBlob(blob, d.dict);
      keys.set(c.contractId, nextKey);
      insContract.run(
        c.contractId,
        c.poolId,
        packed ?? blob,
        encodeHexColumn(c.blobSha256),
        encodeHexColumn(c.updateId),
        templateKey(c.template),
        c.reserveA,
        c.reserveB,
        c.totalLpSupply,
        c.ledgerCreatedAt,
        c.createdAtMs,
        c.createdAtMicros,
        c.fieldsSource,
        c.status,
        c.reason,
        snapshotId,
        snapshotId,
        seenMs,
        seenMs,
        packed === null ? null : (d?.id ?? null),
        nextKey++,
      );
    }
    const touch = db.prepare(
      'UPDATE contracts SET last_seen_snapshot = ?, last_seen_ms = max(last_seen_ms, ?) WHERE contract_id = ?',
    );
    for (const id of plan.seenContracts) touch.run(snapshotId, seenMs, id);
    const settle = db.prepare(
      `UPDATE contracts SET verification_status = ?, verification_reason = ?, fields_source = ?,
         reserve_a = ?, reserve_b = ?, total_lp_supply = ?, created_at_ms = ?, created_at_micros = ? WHERE contract_id = ?`,
    );
    for (const u of plan.verificationUpdates)
      settle.run(
        u.status,
        u.reason,
        u.fieldsSource,
        u.reserveA,
        u.reserveB,
        u.totalLpSupply,
        u.createdAtMs,
        u.createdAtMicros,
        u.contractId,
      );

    const insObs = db.prepare(
      `INSERT INTO observations (snapshot_id, pool_id, observed_at_ms, contract_key, state_contract_id, symbol, reserve_a,
         reserve_b, price, tvl_cc, fee_rate, total_lp_supply, ledger_created_at, ledger_created_at_ms, proof_reserve_a,
         proof_reserve_b, blob_sha256, state_is_contract)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const o of plan.observations)
      insObs.run(
        snapshotId,
        o.poolId,
        seenMs,
        o.contractId === null ? null : (keys.get(o.contractId) ?? null),
        o.stateContractId,
        o.symbol,
        o.reserveA,
        o.reserveB,
        o.price,
        o.tvlCc,
        o.feeRate,
        o.totalLpSupply,
        o.ledgerCreatedAt,
        o.ledgerCreatedAtMs,
        o.proofReserveA,
        o.proofReserveB,
        o.blobSha256,
        o.stateIsContract ? 1 : 0,
      );
    updateHistoryState(
      mirror,
      snapshotId,
      plan.verificationUpdates.map((u) => u.contractId),
    );
    options.beforeCommit?.();
    const newContracts = plan.newContracts.map((c) => c.contractId);
    return { snapshotId, created: true, pools: s.poolCount, newContracts, contracts: ids.length };
  });
  try {
    return run.immediate();
  } catch (e) {
    if (e instanceof StoreError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError(
      'STORE_WRITE_FAILED',
      `recording the snapshot into "${mirror.path}" failed and was rolled back: ${msg}`,
      { cause: e },
    );
  }
}
