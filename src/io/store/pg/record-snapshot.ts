/**
 * Recording one ApiSnapshot into a PostgreSQL mirror in ONE transaction — the same rows and the
 * same meaning as ../record-snapshot.ts (SQLite): bodies content-addressed (`ON CONFLICT DO
 * NOTHING`), the snapshot and its responses, every reserve contract of both proof sets (inserted
 * once whatever the race: `ON CONFLICT DO NOTHING`, else last-seen moved and a settled
 * verification stored), one observation per pool, the incremental history (./history-state.ts).
 * Several watchers may write one database: the transaction first takes the mirror's advisory
 * write lock, so snapshots commit one after another in id order (what the incremental history
 * needs) while fetching and verifying — the slow part — run in parallel. Readers never wait
 * (MVCC). A watcher killed mid-write leaves nothing: the server rolls the transaction back when
 * its connection drops. Rows are sent as arrays (`unnest`), a handful of statements per snapshot.
 */
import type { ApiSnapshot, PoolProofInfo, PoolStateInfo } from '../../../core/wire/index.js';
import {
  computeFailedSections,
  parseApiTimestampMicros,
  parseApiTimestampMs,
} from '../../../core/wire/index.js';
import { StoreError } from '../../../errors/store.js';
import { encodeStoredBlob } from '../blob-codec.js';
import type { ContractVerifications } from '../mirror-store.js';
import { computeObservationOmissions, computeProofReserveOmission } from '../observation-columns.js';
import { computeBlobDigest, computeSnapshotKey, type RecordSnapshotOptions } from '../record-snapshot.js';
import type { ContractVerificationInput, RecordSnapshotResult } from '../types.js';
import {
  MIRROR_WRITE_LOCK,
  type PgMirror,
  queryRows,
  toStoreError,
  withPgTransaction,
} from './connection.js';
import { updatePgHistoryState } from './history-state.js';

function toVerificationMap(v: ContractVerifications): ReadonlyMap<string, ContractVerificationInput> {
  return v instanceof Map ? v : new Map(Object.entries(v));
}

/** Writes `snapshot` into the mirror (see the module comment); throws StoreError STORE_WRITE_FAILED. */
export async function recordPgSnapshot(
  h: PgMirror,
  snapshot: ApiSnapshot,
  verifications: ContractVerifications = new Map(),
  options: RecordSnapshotOptions = {},
): Promise<RecordSnapshotResult> {
  if (h.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${h.path}" was opened read-only`);
  const now = options.now ?? Date.now;
  const key = computeSnapshotKey(snapshot);
  const vmap = toVerificationMap(verifications);
  try {
    return await withPgTransaction(h, 'BEGIN', async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIRROR_WRITE_LOCK]);
      const existing = await queryRows(c, 'SELECT id, pool_count FROM snapshots WHERE snapshot_key = $1', [
        key,
      ]);
      const ex = existing[0];
      if (ex !== undefined)
        return {
          snapshotId: Number(ex[0]),
          created: false,
          pools: Number(ex[1]),
          newContracts: [],
          contracts: 0,
        };

      const proofs = new Map<string, PoolProofInfo>();
      const proofByPool = new Map<string, PoolProofInfo>();
      for (const section of [snapshot.proofsBefore, snapshot.proofsAfter]) {
        if (!section.ok) continue;
        for (const p of section.value.data.pools) {
          proofs.set(p.reserve_contract.contract_id, p);
          proofByPool.set(p.pool_id, p);
        }
      }
      const state = snapshot.poolsState.ok ? snapshot.poolsState.value.data.pools : [];
      const poolIds = new Set<string>([...state.map((p) => p.pool_id), ...proofByPool.keys()]);

      const snapRows = await queryRows(
        c,
        `INSERT INTO snapshots (snapshot_key, base_url, started_at_ms, finished_at_ms, recorded_at_ms, pool_count,
           new_contracts, failed_sections) VALUES ($1, $2, $3, $4, $5, $6, 0, $7) RETURNING id`,
        [
          key,
          snapshot.baseUrl,
          snapshot.startedAtMs,
          snapshot.finishedAtMs,
          now(),
          poolIds.size,
          JSON.stringify(computeFailedSections(snapshot)),
        ],
      );
      const snapshotId = Number(snapRows[0]?.[0]);

      const raw = snapshot.raw;
      if (raw.length > 0) {
        await c.query(
          `INSERT INTO bodies (sha256, size, body) SELECT * FROM unnest($1::text[], $2::int[], $3::bytea[])
           ON CONFLICT DO NOTHING`,
          [
            raw.map((r) => r.sha256),
            raw.map((r) => r.body.length),
            raw.map((r) => Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength)),
          ],
        );
        await c.query(
          `INSERT INTO responses (snapshot_id, seq, method, url, request_body, status, content_type, body_sha256,
             started_at_ms, duration_ms)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[],
             $9::bigint[], $10::bigint[])`,
          [
            snapshotId,
            raw.map((_r, i) => i),
            raw.map((r) => r.method),
            raw.map((r) => r.url),
            raw.map((r) => r.requestBody),
            raw.map((r) => r.status),
            raw.map((r) => r.contentType),
            raw.map((r) => r.sha256),
            raw.map((r) => r.startedAtMs),
            raw.map((r) => r.durationMs),
          ],
        );
      }

      // contracts: what the mirror holds already, then the new ones inserted once
      const ids = [...proofs.keys()];
      const old = new Map<string, { status: string; source: string }>();
      for (const r of await queryRows(
        c,
        'SELECT contract_id, verification_status, fields_source FROM contracts WHERE contract_id = ANY($1::text[])',
        [ids],
      ))
        old.set(String(r[0]), { status: String(r[1]), source: String(r[2]) });
      const seenMs = snapshot.startedAtMs;
      const fresh: unknown[][] = [];
      const changed: unknown[][] = [];
      const seen: string[] = [];
      for (const [cid, p] of proofs) {
        const rc = p.reserve_contract;
        const v = vmap.get(cid);
        const decoded = v?.decoded ?? null;
        const f = decoded
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
        const ms = Number(f.us / 1000n);
        const o = old.get(cid);
        if (o === undefined) {
          const t = rc.template;
          fresh.push([
            cid,
            p.pool_id,
            Buffer.from(rc.created_event_blob, 'base64'),
            computeBlobDigest(rc.created_event_blob),
            rc.update_id,
            t.package_id,
            t.package_name,
            t.module_name,
            t.entity_name,
            f.a,
            f.b,
            f.lp,
            rc.ledger_created_at,
            ms,
            f.us.toString(),
            f.src,
            v?.status ?? 'unchecked',
            v?.reason ?? null,
          ]);
        } else {
          seen.push(cid);
          if (v !== undefined && (o.status !== v.status || (decoded && o.source !== 'blob')))
            changed.push([cid, v.status, v.reason ?? null, f.src, f.a, f.b, f.lp, ms, f.us.toString()]);
        }
      }
      const col = (rows: unknown[][], i: number): unknown[] => rows.map((r) => r[i]);
      const inserted = new Set<string>();
      if (fresh.length > 0) {
        // blobs: deflated with their pool's dictionary (the first blob stored for the pool; ../blob-codec.ts)
        const firstBlob = new Map<string, Buffer>();
        for (const r of fresh) if (!firstBlob.has(String(r[1]))) firstBlob.set(String(r[1]), r[2] as Buffer);
        await c.query(
          `INSERT INTO blob_dictionaries (pool_id, dict) SELECT * FROM unnest($1::text[], $2::bytea[])
           ON CONFLICT (pool_id) DO NOTHING`,
          [[...firstBlob.keys()], [...firstBlob.values()]],
        );
        const dicts = new Map<string, { id: string; dict: Buffer }>();
        for (const r of await queryRows(
          c,
          'SELECT pool_id, id, dict FROM blob_dictionaries WHERE pool_id = ANY($1::text[])',
          [[...firstBlob.keys()]],
        ))
          dicts.set(String(r[0]), { id: String(r[1]), dict: r[2] as Buffer });
        for (const r of fresh) {
          const d = dicts.get(String(r[1]));
          const packed = d === undefined ? null : encodeStoredBlob(r[2] as Buffer, d.dict);
          if (packed !== null) r[2] = packed;
          r.push(packed === null ? null : (d?.id ?? null));
        }
        // template strings (columns 5–8) → their key in the lookup table (schema 7)
        const tkey = (r: unknown[]): string => r.slice(5, 9).map(String).join('\u0000');
        const templates = new Map<string, unknown[]>();
        for (const r of fresh) templates.set(tkey(r), r.slice(5, 9));
        const parts = [...templates.values()];
        await c.query(
          `INSERT INTO templates (package_id, package_name, module_name, entity_name)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
          [0, 1, 2, 3].map((i) => col(parts, i)),
        );
        const keys = new Map<string, string>();
        for (const r of await queryRows(
          c,
          `SELECT t.id, t.package_id, t.package_name, t.module_name, t.entity_name FROM templates t
           JOIN unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u (p, n, m, e)
             ON t.package_id = u.p AND t.package_name = u.n AND t.module_name = u.m AND t.entity_name = u.e`,
          [0, 1, 2, 3].map((i) => col(parts, i)),
        ))
          keys.set(r.slice(1, 5).map(String).join('\u0000'), String(r[0]));
        for (const r of fresh) r.splice(5, 4, keys.get(tkey(r)) ?? null);
        const got = await queryRows(
          c,
          `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b,
             total_lp_supply, ledger_created_at, created_at_ms, created_at_micros, fields_source, verification_status,
             verification_reason, blob_dict, first_seen_snapshot, last_seen_snapshot, first_seen_ms, last_seen_ms)
           SELECT u.*, $17::bigint, $17::bigint, $18::bigint, $18::bigint FROM unnest($1::text[], $2::text[],
             $3::bytea[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[],
             $11::bigint[], $12::bigint[], $13::text[], $14::text[], $15::text[], $16::bigint[]) AS u
           ON CONFLICT (contract_id) DO NOTHING RETURNING contract_id`,
          [...Array.from({ length: 16 }, (_x, i) => col(fresh, i)), snapshotId, seenMs],
        );
        for (const r of got) inserted.add(String(r[0]));
        // a contract another writer inserted first is an existing one
        for (const r of fresh) if (!inserted.has(String(r[0]))) seen.push(String(r[0]));
      }
      if (seen.length > 0)
        await c.query(
          `UPDATE contracts SET last_seen_snapshot = $1, last_seen_ms = GREATEST(last_seen_ms, $2)
           WHERE contract_id = ANY($3::text[])`,
          [snapshotId, seenMs, seen],
        );
      for (const u of changed)
        await c.query(
          `UPDATE contracts SET verification_status = $2, verification_reason = $3, fields_source = $4,
             reserve_a = $5, reserve_b = $6, total_lp_supply = $7, created_at_ms = $8, created_at_micros = $9
           WHERE contract_id = $1`,
          u,
        );
      const newContracts = ids.filter((id) => inserted.has(id));

      const stateById = new Map<string, PoolStateInfo>(state.map((s) => [s.pool_id, s]));
      // what the contract rows hold (immutable columns), so observations store only what differs
      const rowValues = new Map<string, { blobSha256: string; ledgerCreatedAt: string; ckey: string }>();
      for (const r of await queryRows(
        c,
        'SELECT contract_id, blob_sha256, ledger_created_at, ckey FROM contracts WHERE contract_id = ANY($1::text[])',
        [[...proofByPool.values()].map((p) => p.reserve_contract.contract_id)],
      ))
        rowValues.set(String(r[0]), {
          blobSha256: String(r[1]),
          ledgerCreatedAt: String(r[2]),
          ckey: String(r[3]),
        });
      const obs: unknown[][] = [];
      for (const poolId of poolIds) {
        const s = stateById.get(poolId);
        const rc = proofByPool.get(poolId)?.reserve_contract;
        const row = rc === undefined ? undefined : rowValues.get(rc.contract_id);
        const compact = computeObservationOmissions(
          rc?.contract_id ?? null,
          s?.contract_id ?? null,
          rc === undefined ? null : computeBlobDigest(rc.created_event_blob),
          rc?.ledger_created_at ?? null,
          row,
        );
        const reserveA = s?.reserve_a ?? rc?.reserve_a ?? null;
        const reserveB = s?.reserve_b ?? rc?.reserve_b ?? null;
        obs.push([
          poolId,
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
          compact.stateIsContract,
        ]);
      }
      if (obs.length > 0)
        await c.query(
          `INSERT INTO observations (snapshot_id, observed_at_ms, pool_id, contract_key, state_contract_id, symbol,
             reserve_a, reserve_b, price, tvl_cc, fee_rate, total_lp_supply, ledger_created_at, ledger_created_at_ms,
             proof_reserve_a, proof_reserve_b, blob_sha256, state_is_contract)
           SELECT $17::bigint, $18::bigint, u.* FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[],
             $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[],
             $13::text[], $14::text[], $15::text[], $16::boolean[]) AS u`,
          [...Array.from({ length: 16 }, (_x, i) => col(obs, i)), snapshotId, snapshot.startedAtMs],
        );
      await c.query('UPDATE snapshots SET new_contracts = $1 WHERE id = $2', [
        newContracts.length,
        snapshotId,
      ]);
      await updatePgHistoryState(
        h,
        c,
        snapshotId,
        changed.map((u) => String(u[0])),
      );
      await options.beforeCommit?.();
      return { snapshotId, created: true, pools: poolIds.size, newContracts, contracts: proofs.size };
    });
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw toStoreError(h, 'STORE_WRITE_FAILED', 'recording the snapshot (rolled back)', e);
  }
}
