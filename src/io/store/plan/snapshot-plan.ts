/**
 * What rows one snapshot writes into the mirror (docs/mirror.md "Plan, then apply"): a pure
 * function of the snapshot, the verification of its contracts and what the mirror already holds of
 * them (passed in), returning plain rows per table. No SQL, no database, no clock, no hashing: the
 * appliers (../sqlite/apply-snapshot.ts, ../postgres/apply-snapshot.ts) read the inputs, call
 * `computeSnapshotPlan` and write its rows in one transaction, each in its dialect.
 */
import type { ApiSnapshot, PoolProofInfo, PoolStateInfo, RawResponse } from '../../../core/wire/index.js';
import {
  computeFailedSections,
  parseApiTimestampMicros,
  parseApiTimestampMs,
} from '../../../core/wire/index.js';
import type {
  ContractVerificationInput,
  MirrorSnapshotRow,
  MirrorVerificationStatus,
  PoolObservation,
} from '../types.js';

/** What the mirror holds of a contract the snapshot serves (read by the applier before planning). */
export interface StoredContract {
  readonly status: MirrorVerificationStatus | string;
  readonly fieldsSource: 'blob' | 'published' | string;
  /** immutable columns, as served when the contract was stored */
  readonly blobSha256: string;
  readonly ledgerCreatedAt: string;
}

export interface SnapshotPlanInput {
  readonly snapshot: ApiSnapshot;
  /** the idempotence key (computeSnapshotKey) */
  readonly snapshotKey: string;
  readonly recordedAtMs: number;
  readonly verifications: ReadonlyMap<string, ContractVerificationInput>;
  /** sha256 hex of a base64 blob's bytes (passed in: the plan hashes nothing) */
  readonly blobDigest: (base64: string) => string;
  /** the mirror's rows of the snapshot's contract IDs (see readPlanContractIds) */
  readonly stored: ReadonlyMap<string, StoredContract>;
  /** digests of bodies the mirror holds and this snapshot may reference instead of storing again */
  readonly reusableBodies: ReadonlySet<string>;
}

/** The snapshots row as written: keyed, its failed sections as JSON text, its id still to come. */
interface SnapshotRow extends Omit<MirrorSnapshotRow, 'id' | 'failedSections'> {
  readonly snapshotKey: string;
  readonly failedSections: string;
}

/** The reserve fields a contract row stores: from the verified blob, or as /pools/proof published them. */
interface ContractFields {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly createdAtMs: number;
  readonly createdAtMicros: bigint;
  readonly fieldsSource: 'blob' | 'published';
}

/** A settled verification of a stored contract (its row is updated). */
export interface VerificationUpdate extends ContractFields {
  readonly contractId: string;
  readonly status: MirrorVerificationStatus;
  readonly reason: string | null;
}

interface NewContractRow extends VerificationUpdate {
  readonly poolId: string;
  /** the created_event_blob as served (base64; the applier stores its bytes, compressed) */
  readonly blobBase64: string;
  readonly blobSha256: string;
  readonly updateId: string;
  readonly template: {
    readonly package_id: string;
    readonly package_name: string;
    readonly module_name: string;
    readonly entity_name: string;
  };
  readonly ledgerCreatedAt: string;
}

/**
 * An observation as it is written: the row a read gives back (`PoolObservation`) without what the
 * snapshot row supplies, plus whether /pools/state's contract ID is a contract; `contractId` is
 * resolved to the contract's key by the applier.
 */
type ObservationRow = Omit<PoolObservation, 'snapshotId' | 'observedAtMs'> & {
  readonly stateIsContract: boolean;
};

export interface SnapshotPlan {
  readonly snapshot: SnapshotRow;
  /** bodies to store (distinct digests not reusable) */
  readonly bodies: readonly (Pick<RawResponse, 'sha256' | 'body'> & { readonly size: number })[];
  /** the responses in fetch order (`seq`), referencing their body by digest */
  readonly responses: readonly (RawResponse & { readonly seq: number })[];
  /** contracts seen for the first time, in proof order */
  readonly newContracts: readonly NewContractRow[];
  /** the distinct templates of the new contracts (added to `templates` unless there) */
  readonly templates: readonly NewContractRow['template'][];
  /** per pool of a new contract, the first new blob: the pool's dictionary if it has none yet */
  readonly dictionaryCandidates: ReadonlyMap<string, string>;
  /** stored contracts served again: their last-seen columns move to this snapshot */
  readonly seenContracts: readonly string[];
  /** stored contracts whose verification this snapshot settles (their pools are re-folded) */
  readonly verificationUpdates: readonly VerificationUpdate[];
  /** one per pool of the snapshot */
  readonly observations: readonly ObservationRow[];
}

/** A template's four strings as one key (`templates` is unique on them). */
export function toTemplateKey(t: NewContractRow['template']): string {
  return [t.package_id, t.package_name, t.module_name, t.entity_name].join('\u0000');
}

/** Every reserve contract of both proof sets by contract ID (proofsAfter wins). */
function proofsByContract(snapshot: ApiSnapshot): Map<string, PoolProofInfo> {
  const proofs = new Map<string, PoolProofInfo>();
  for (const section of [snapshot.proofsBefore, snapshot.proofsAfter])
    if (section.ok) for (const p of section.value.data.pools) proofs.set(p.reserve_contract.contract_id, p);
  return proofs;
}

/** The contract IDs whose stored rows the plan needs (`SnapshotPlanInput.stored`). */
export function readPlanContractIds(snapshot: ApiSnapshot): string[] {
  return [...proofsByContract(snapshot).keys()];
}

function contractFields(p: PoolProofInfo, v: ContractVerificationInput | undefined): ContractFields {
  const rc = p.reserve_contract;
  const d = v?.decoded ?? null;
  const us = d === null ? (parseApiTimestampMicros(rc.ledger_created_at) ?? 0n) : d.createdAtMicros;
  return {
    reserveA: d?.reserveA ?? rc.reserve_a,
    reserveB: d?.reserveB ?? rc.reserve_b,
    totalLpSupply: d?.totalLpSupply ?? rc.total_lp_supply,
    createdAtMicros: us,
    createdAtMs: Number(us / 1000n),
    fieldsSource: d === null ? 'published' : 'blob',
  };
}

/** The latest proof per pool: proofsAfter wins over proofsBefore. */
function computeLatestProofByPool(snapshot: ApiSnapshot): Map<string, PoolProofInfo> {
  const out = new Map<string, PoolProofInfo>();
  for (const section of [snapshot.proofsBefore, snapshot.proofsAfter])
    if (section.ok) for (const p of section.value.data.pools) out.set(p.pool_id, p);
  return out;
}

/** The pools a snapshot observed: those of /pools/state and of either proof set. */
export function computeObservedPools(snapshot: ApiSnapshot): Set<string> {
  const state = snapshot.poolsState.ok ? snapshot.poolsState.value.data.pools : [];
  return new Set<string>([...state.map((p) => p.pool_id), ...computeLatestProofByPool(snapshot).keys()]);
}

/** The rows `input.snapshot` writes (see the module comment). */
export function computeSnapshotPlan(input: SnapshotPlanInput): SnapshotPlan {
  const { snapshot, stored } = input;
  const proofs = proofsByContract(snapshot);
  const proofByPool = computeLatestProofByPool(snapshot);
  const state = snapshot.poolsState.ok ? snapshot.poolsState.value.data.pools : [];
  const poolIds = computeObservedPools(snapshot);

  const bodies = new Map<string, SnapshotPlan['bodies'][number]>();
  for (const r of snapshot.raw)
    if (!input.reusableBodies.has(r.sha256))
      bodies.set(r.sha256, { sha256: r.sha256, size: r.body.length, body: r.body });
  const responses = snapshot.raw.map((r, seq) => ({ ...r, seq }));

  const newContracts: NewContractRow[] = [];
  const dictionaryCandidates = new Map<string, string>();
  const seenContracts: string[] = [];
  const verificationUpdates: VerificationUpdate[] = [];
  const rowValues = new Map<string, { readonly blobSha256: string; readonly ledgerCreatedAt: string }>();
  for (const [contractId, p] of proofs) {
    const rc = p.reserve_contract;
    const v = input.verifications.get(contractId);
    const fields = contractFields(p, v);
    const old = stored.get(contractId);
    if (old === undefined) {
      const blobSha256 = input.blobDigest(rc.created_event_blob);
      const ledgerCreatedAt = rc.ledger_created_at;
      newContracts.push({
        contractId,
        poolId: p.pool_id,
        blobBase64: rc.created_event_blob,
        blobSha256,
        updateId: rc.update_id,
        template: rc.template,
        ledgerCreatedAt,
        ...fields,
        status: v?.status ?? 'unchecked',
        reason: v?.reason ?? null,
      });
      if (!dictionaryCandidates.has(p.pool_id)) dictionaryCandidates.set(p.pool_id, rc.created_event_blob);
      rowValues.set(contractId, { blobSha256, ledgerCreatedAt });
      continue;
    }
    rowValues.set(contractId, old);
    seenContracts.push(contractId);
    if (
      v !== undefined &&
      (old.status !== v.status || (fields.fieldsSource === 'blob' && old.fieldsSource !== 'blob'))
    )
      verificationUpdates.push({ contractId, status: v.status, reason: v.reason ?? null, ...fields });
  }

  const stateById = new Map<string, PoolStateInfo>(state.map((s) => [s.pool_id, s]));
  const observations = [...poolIds].map((poolId): ObservationRow => {
    const s = stateById.get(poolId);
    const rc = proofByPool.get(poolId)?.reserve_contract;
    const row = rc === undefined ? undefined : rowValues.get(rc.contract_id);
    // compact observations (../observation-columns.ts): NULL where the value equals what the
    // mirror holds — the state's contract ID when it is the proof's, the blob digest and ledger time
    // when they are the contract row's, a proof reserve when it is the observed one
    const contractId = rc?.contract_id ?? null;
    const stateIsContract = contractId !== null && s?.contract_id === contractId;
    const digest = rc === undefined ? null : input.blobDigest(rc.created_event_blob);
    const reserveA = s?.reserve_a ?? rc?.reserve_a ?? null;
    const reserveB = s?.reserve_b ?? rc?.reserve_b ?? null;
    const proofA = rc?.reserve_a ?? null;
    const proofB = rc?.reserve_b ?? null;
    return {
      poolId,
      contractId,
      stateContractId: stateIsContract ? null : (s?.contract_id ?? null),
      stateIsContract,
      symbol: s?.symbol ?? null,
      reserveA,
      reserveB,
      price: s?.price ?? null,
      tvlCc: s?.tvl_cc ?? null,
      feeRate: s?.fee_rate ?? null,
      totalLpSupply: rc?.total_lp_supply ?? null,
      ledgerCreatedAt:
        row?.ledgerCreatedAt === rc?.ledger_created_at ? null : (rc?.ledger_created_at ?? null),
      ledgerCreatedAtMs: rc === undefined ? null : parseApiTimestampMs(rc.ledger_created_at),
      proofReserveA: row !== undefined && proofA === reserveA ? null : proofA,
      proofReserveB: row !== undefined && proofB === reserveB ? null : proofB,
      blobSha256: row?.blobSha256 === digest ? null : digest,
    };
  });

  return {
    snapshot: {
      snapshotKey: input.snapshotKey,
      baseUrl: snapshot.baseUrl,
      startedAtMs: snapshot.startedAtMs,
      finishedAtMs: snapshot.finishedAtMs,
      recordedAtMs: input.recordedAtMs,
      poolCount: poolIds.size,
      newContracts: newContracts.length,
      failedSections: JSON.stringify(computeFailedSections(snapshot)),
    },
    bodies: [...bodies.values()],
    templates: [...new Map(newContracts.map((c) => [toTemplateKey(c.template), c.template])).values()],
    responses,
    newContracts,
    dictionaryCandidates,
    seenContracts,
    verificationUpdates,
    observations,
  };
}
