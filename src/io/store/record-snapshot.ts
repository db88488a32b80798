/**
 * Recording one ApiSnapshot into the mirror in ONE immediate transaction (docs/decisions/mirror.md
 * "crash safety"): response bodies (stored once while unchanged from one snapshot to the next), the snapshot and its
 * responses, every reserve contract of both proof sets (upserted by contract ID: first/last seen,
 * verification status), one observation per pool, and the incremental history (./history-state.ts).
 * Idempotent: a snapshot is keyed by
 * sha256(base URL, start time, response digests); recording it again writes nothing.
 */
import { createHash } from 'node:crypto';
import type { ApiSnapshot, PoolProofInfo, PoolStateInfo } from '../../core/wire/index.js';
import {
  computeFailedSections,
  parseApiTimestampMicros,
  parseApiTimestampMs,
} from '../../core/wire/index.js';
import { StoreError } from '../../errors/store.js';
import { readArchivedMaxContractKey, reviveArchivedContracts } from './archive.js';
import { encodeStoredBlob } from './blob-codec.js';
import { decodeHexColumn, encodeHexColumn } from './hex-columns.js';
import { updateHistoryState } from './history-state.js';
import { mirrorDb } from './mirror-db.js';
import {
  type ContractRowValues,
  computeObservationOmissions,
  computeProofReserveOmission,
} from './observation-columns.js';
import type { Mirror } from './open-mirror.js';
import { createTemplateKeyLookup } from './template-keys.js';
import type { ContractVerificationInput, RecordSnapshotResult } from './types.js';

export interface RecordSnapshotOptions {
  readonly now?: () => number;
  /** test seam: called inside the transaction just before COMMIT (crash-safety tests; PostgreSQL awaits it) */
  readonly beforeCommit?: () => void | Promise<void>;
}

/** The idempotence key of a snapshot: sha256 hex over its base URL, start time and responses. */
export function computeSnapshotKey(snapshot: ApiSnapshot): string {
  const h = createHash('sha256');
  h.update(`${snapshot.baseUrl}\n${snapshot.startedAtMs}\n`);
  for (const r of snapshot.raw) h.update(`${r.method} ${r.url} ${r.status} ${r.sha256} ${r.startedAtMs}\n`);
  return h.digest('hex');
}

const digests = new Map<string, string>();
/** sha256 hex of a base64 blob's bytes (memoised: the same blob appears in both proof sets). */
export function computeBlobDigest(b64: string): string {
  let d = digests.get(b64);
  if (d === undefined) {
    d = createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');
    if (digests.size > 10_000) digests.clear();
    digests.set(b64, d);
  }
  return d;
}

function toVerificationMap(
  v: ReadonlyMap<string, ContractVerificationInput> | Readonly<Record<string, ContractVerificationInput>>,
): ReadonlyMap<string, ContractVerificationInput> {
  return v instanceof Map ? v : new Map(Object.entries(v));
}

/**
 * Writes `snapshot` (and the verification of its contracts) into the mirror; throws StoreError
 * STORE_WRITE_FAILED after rolling back if anything fails. Returns what was recorded.
 */
export function recordSnapshot(
  mirror: Mirror,
  snapshot: ApiSnapshot,
  verifications:
    | ReadonlyMap<string, ContractVerificationInput>
    | Readonly<Record<string, ContractVerificationInput>> = new Map(),
  options: RecordSnapshotOptions = {},
): RecordSnapshotResult {
  if (mirror.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${mirror.path}" was opened read-only`);
  const db = mirrorDb(mirror);
  const now = options.now ?? Date.now;
  const key = computeSnapshotKey(snapshot);
  const vmap = toVerificationMap(verifications);

  const run = db.transaction((): RecordSnapshotResult => {
    const existing = db.prepare('SELECT id, pool_count FROM snapshots WHERE snapshot_key = ?').get(key) as
      | { id: number; pool_count: number }
      | undefined;
    if (existing !== undefined) {
      return {
        snapshotId: existing.id,
        created: false,
        pools: existing.pool_count,
        newContracts: [],
        contracts: 0,
      };
    }
    const proofs = new Map<string, PoolProofInfo>();
    for (const section of [snapshot.proofsBefore, snapshot.proofsAfter]) {
      if (!section.ok) continue;
      for (const p of section.value.data.pools) proofs.set(p.reserve_contract.contract_id, p);
    }
    const state = snapshot.poolsState.ok ? snapshot.poolsState.value.data.pools : [];
    // latest proof per pool: proofsAfter wins over proofsBefore
    const proofByPool = new Map<string, PoolProofInfo>();
    for (const section of [snapshot.proofsBefore, snapshot.proofsAfter]) {
      if (section.ok) for (const p of section.value.data.pools) proofByPool.set(p.pool_id, p);
    }
    const poolIds = new Set<string>([...state.map((p) => p.pool_id), ...proofByPool.keys()]);

    const snap = db
      .prepare(
        `INSERT INTO snapshots (snapshot_key, base_url, started_at_ms, finished_at_ms, recorded_at_ms, pool_count, new_contracts, failed_sections)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(
        key,
        snapshot.baseUrl,
        snapshot.startedAtMs,
        snapshot.finishedAtMs,
        now(),
        poolIds.size,
        JSON.stringify(computeFailedSections(snapshot)),
      );
    const snapshotId = Number(snap.lastInsertRowid);

    // bodies by digest: those of the latest earlier snapshot that kept its raw responses, then this
    // one's as they are stored — an unchanged response costs no new body, and no index by digest
    // is maintained (schema 8: one scattered leaf per new body in a big mirror)
    const bodyIds = new Map<string, number>();
    const previous = db
      .prepare(
        `SELECT body_sha256, body_id FROM responses
         WHERE snapshot_id = (SELECT max(snapshot_id) FROM responses WHERE snapshot_id < ?)`,
      )
      .raw(true)
      .all(snapshotId) as [string, number][];
    for (const [sha, id] of previous) bodyIds.set(sha, id);
    const insBody = db.prepare('INSERT INTO bodies (sha256, size, body) VALUES (?, ?, ?)');
    const insResp = db.prepare(
      `INSERT INTO responses (snapshot_id, seq, method, url, request_body, status, content_type, body_sha256, body_id,
         started_at_ms, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    snapshot.raw.forEach((r, i) => {
      let bodyId = bodyIds.get(r.sha256);
      if (bodyId === undefined) {
        bodyId = Number(
          insBody.run(
            r.sha256,
            r.body.length,
            Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength),
          ).lastInsertRowid,
        );
        bodyIds.set(r.sha256, bodyId);
      }
      insResp.run(
        snapshotId,
        i,
        r.method,
        r.url,
        r.requestBody,
        r.status,
        r.contentType,
        r.sha256,
        bodyId,
        r.startedAtMs,
        r.durationMs,
      );
    });

    // a contract the archive holds, served again, goes back to the rows first (./archive.ts)
    reviveArchivedContracts(db, [...proofs.keys()]);
    const getContract = db.prepare(
      'SELECT verification_status, fields_source FROM contracts WHERE contract_id = ?',
    );
    const insContract = db.prepare(
      `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b, total_lp_supply, ledger_created_at, created_at_ms, created_at_micros,
         fields_source, verification_status, verification_reason, first_seen_snapshot, last_seen_snapshot, first_seen_ms,
         last_seen_ms, blob_dict, ckey)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const templateKey = createTemplateKeyLookup(db);
    // the next contract key (schema 5): one past the highest, through the key's unique index
    let nextKey =
      Math.max(
        Number(db.prepare('SELECT coalesce(max(ckey), 0) FROM contracts').pluck().get()),
        readArchivedMaxContractKey(db),
      ) + 1;
    const getDict = db.prepare('SELECT id, dict FROM blob_dictionaries WHERE pool_id = ?');
    const insDict = db.prepare('INSERT INTO blob_dictionaries (pool_id, dict) VALUES (?, ?)');
    /** the stored form of a new contract's blob: deflated with its pool's dictionary (the pool's first blob) */
    const storeBlob = (poolId: string, blob: Buffer): [Buffer, number | null] => {
      let d = getDict.get(poolId) as { id: number; dict: Buffer } | undefined;
      if (d === undefined) d = { id: Number(insDict.run(poolId, blob).lastInsertRowid), dict: blob };
      const packed = encodeStoredBlob(blob, d.dict);
      return packed === null ? [blob, null] : [packed, d.id];
    };
    const touchContract = db.prepare(
      'UPDATE contracts SET last_seen_snapshot = ?, last_seen_ms = max(last_seen_ms, ?) WHERE contract_id = ?',
    );
    const updVerification = db.prepare(
      `UPDATE contracts SET verification_status = ?, verification_reason = ?, fields_source = ?,
         reserve_a = ?, reserve_b = ?, total_lp_supply = ?, created_at_ms = ?, created_at_micros = ? WHERE contract_id = ?`,
    );
    const seenMs = snapshot.startedAtMs;
    const newContracts: string[] = [];
    const changedContracts: string[] = [];
    for (const [cid, p] of proofs) {
      const rc = p.reserve_contract;
      const v = vmap.get(cid);
      const decoded = v?.decoded ?? null;
      const fields = decoded
        ? {
            a: decoded.reserveA,
            b: decoded.reserveB,
            lp: decoded.totalLpSupply,
            us: decoded.createdAtMicros,
            src: 'blob',
          }
        : {
            a: rc.reserve_a,
            b: rc.reserve_b,
            lp: rc.total_lp_supply,
            us: parseApiTimestampMicros(rc.ledger_created_at) ?? 0n,
            src: 'published',
          };
      const old = getContract.get(cid) as { verification_status: string; fields_source: string } | undefined;
      const ms = Number(fields.us / 1000n);
      if (old === undefined) {
        newContracts.push(cid);
        const [blob, dictId] = storeBlob(p.pool_id, Buffer.from(rc.created_event_blob, 'base64'));
        insContract.run(
          cid,
          p.pool_id,
          blob,
          encodeHexColumn(computeBlobDigest(rc.created_event_blob)),
          encodeHexColumn(rc.update_id),
          templateKey(rc.template),
          fields.a,
          fields.b,
          fields.lp,
          rc.ledger_created_at,
          ms,
          fields.us,
          fields.src,
          v?.status ?? 'unchecked',
          v?.reason ?? null,
          snapshotId,
          snapshotId,
          seenMs,
          seenMs,
          dictId,
          nextKey++,
        );
      } else {
        touchContract.run(snapshotId, seenMs, cid);
        if (
          v !== undefined &&
          (old.verification_status !== v.status || (decoded && old.fields_source !== 'blob'))
        ) {
          changedContracts.push(cid);
          updVerification.run(
            v.status,
            v.reason ?? null,
            fields.src,
            fields.a,
            fields.b,
            fields.lp,
            ms,
            fields.us,
            cid,
          );
        }
      }
    }

    const insObs = db.prepare(
      `INSERT INTO observations (snapshot_id, pool_id, observed_at_ms, contract_key, state_contract_id, symbol, reserve_a,
         reserve_b, price, tvl_cc, fee_rate, total_lp_supply, ledger_created_at, ledger_created_at_ms, proof_reserve_a,
         proof_reserve_b, blob_sha256, state_is_contract)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const getContractValues = db.prepare(
      'SELECT ckey, blob_sha256 AS blobSha256, ledger_created_at AS ledgerCreatedAt FROM contracts WHERE contract_id = ?',
    );
    const stateById = new Map<string, PoolStateInfo>(state.map((s) => [s.pool_id, s]));
    for (const poolId of poolIds) {
      const s = stateById.get(poolId);
      const p = proofByPool.get(poolId);
      const rc = p?.reserve_contract;
      const stored =
        rc === undefined
          ? undefined
          : (getContractValues.get(rc.contract_id) as
              | { ckey: number; blobSha256: unknown; ledgerCreatedAt: string }
              | undefined);
      const row: (ContractRowValues & { ckey: number }) | undefined =
        stored === undefined
          ? undefined
          : { ...stored, blobSha256: decodeHexColumn(stored.blobSha256) ?? '' };
      const compact = computeObservationOmissions(
        rc?.contract_id ?? null,
        s?.contract_id ?? null,
        rc === undefined ? null : computeBlobDigest(rc.created_event_blob),
        rc?.ledger_created_at ?? null,
        row,
      );
      const reserveA = s?.reserve_a ?? rc?.reserve_a ?? null;
      const reserveB = s?.reserve_b ?? rc?.reserve_b ?? null;
      insObs.run(
        snapshotId,
        poolId,
        snapshot.startedAtMs,
        row?.ckey ?? null,
        compact.stateContractId,
        s?.symbol ?? null,
        reserveA,
        reserveB,
        s?.price ?? null,
        s?.tvl_cc ?? null,
        s?.fee_rate ?? null,
        rc?.total_lp_supply ?? null,
        compact.ledgerCreatedAt,
        rc === undefined ? null : parseApiTimestampMs(rc.ledger_created_at),
        row === undefined
          ? (rc?.reserve_a ?? null)
          : computeProofReserveOmission(rc?.reserve_a ?? null, reserveA),
        row === undefined
          ? (rc?.reserve_b ?? null)
          : computeProofReserveOmission(rc?.reserve_b ?? null, reserveB),
        compact.blobSha256,
        compact.stateIsContract ? 1 : 0,
      );
    }
    db.prepare('UPDATE snapshots SET new_contracts = ? WHERE id = ?').run(newContracts.length, snapshotId);
    updateHistoryState(mirror, snapshotId, changedContracts);
    options.beforeCommit?.();
    return { snapshotId, created: true, pools: poolIds.size, newContracts, contracts: proofs.size };
  });

  try {
    return run.immediate();
  } catch (e) {
    if (e instanceof StoreError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError(
      'STORE_WRITE_FAILED',
      `recording the snapshot into "${mirror.path}" failed and was rolled back: ${msg}`,
      {
        cause: e,
      },
    );
  }
}
