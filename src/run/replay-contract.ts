/**
 * Re-verifying ONE stored reserve contract for `replay` (the issue "replay"): the one proof step
 * (src/core/proof: decode → type → hash → compare → reserves via the profile) on the stored blob,
 * then the recorded reserves compared with the blob's by the same comparison as the audit's proof
 * check. Shared by the in-process path and distributed replay's workers (./replay-distributed.ts),
 * so both give the same findings; never throws for a bad blob (a finding says what went wrong).
 */
import { type Finding, makeFinding, type TemplateIdentity } from '../core/audit/index.js';
import { compareReserveAmounts } from '../core/proof/compare-fields.js';
import type { ReserveProfile } from '../core/proof/profile.js';
import { hasProofReason, type ReserveProof, verifyReserveProof } from '../core/proof/reserve-proof.js';
import { verifyReserveProofFast } from '../core/proof/reserve-proof-fast.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { sha256Node, sha256NodeBinary } from '../io/node-sha256.js';
import { batchBlob, type ContractBatch } from '../io/store/index.js';

/** What re-verifying one stored contract proved (structured-cloneable). */
export interface ReplayedContract {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly createdAtMicros: bigint;
  readonly template: string;
}

/** The outcome for one contract: its findings (none = pass) and, when proven, its blob's values. */
export interface ReplayedContractResult {
  readonly findings: Finding[];
  readonly proven: ReplayedContract | null;
}

export interface StoredContractInput {
  readonly contractId: string;
  readonly poolId: string;
  readonly blob: Uint8Array;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
}

/** Turns the proof of a stored contract, and the values the mirror recorded, into replay findings. */
function computeReplayFindings(k: StoredContractInput, proof: ReserveProof): ReplayedContractResult {
  const short = `${k.contractId.slice(0, 16)}…`;
  const v = proof.evidence;
  const f: Finding[] = [];
  if (v.decoded === null) {
    f.push(
      makeFinding(
        'PROOF_BLOB_MALFORMED',
        k.poolId,
        `stored blob of ${short} does not decode: ${v.decodeError ?? ''}`,
        { contractId: k.contractId },
      ),
    );
    return { findings: f, proven: null };
  }
  if (hasProofReason(proof, 'PUBLISHED_ID_MISMATCH') || hasProofReason(proof, 'ID_NOT_RECOMPUTED'))
    f.push(
      makeFinding(
        'PROOF_CONTRACT_ID_MISMATCH',
        k.poolId,
        `stored contract ${short} does not recompute from its blob`,
        {
          contractId: k.contractId,
          reasons: v.reasons,
          embedded: v.decoded.embeddedContractId,
        },
      ),
    );
  else if (hasProofReason(proof, 'ID_UNVERIFIABLE'))
    f.push(
      makeFinding(
        'PROOF_UNVERIFIABLE',
        k.poolId,
        `stored contract ${short} could not be verified: ${v.reasons.join('; ')}`,
        { contractId: k.contractId },
      ),
    );
  const t = v.decoded.template;
  if (proof.templateProfile === null) {
    f.push(
      makeFinding(
        'PROOF_TEMPLATE_UNEXPECTED',
        k.poolId,
        `stored contract ${short} is of template ${t.entityName}`,
        {
          contractId: k.contractId,
          got: t,
        },
      ),
    );
    return { findings: f, proven: null };
  }
  const blob = proof.blobFields;
  if (blob === null) {
    const why = proof.reasons.find((r) => r.code === 'FIELDS_UNREADABLE')?.message ?? 'unreadable fields';
    f.push(makeFinding('PROOF_UNVERIFIABLE', k.poolId, why, { contractId: k.contractId }));
    return { findings: f, proven: null };
  }
  for (const d of compareReserveAmounts(blob, k))
    f.push(
      makeFinding(
        'PROOF_FIELD_MISMATCH',
        k.poolId,
        `recorded ${d.field} ${d.got} of ${short} differs from its blob (${d.expected})`,
        { contractId: k.contractId, field: d.field, expected: d.expected, got: d.got },
      ),
    );
  const proven =
    proof.provenFields === null || proof.createdAtMicros === null
      ? null
      : {
          reserveA: proof.provenFields.reserveA,
          reserveB: proof.provenFields.reserveB,
          totalLpSupply: proof.provenFields.totalLpSupply,
          createdAtMicros: proof.createdAtMicros,
          template: templateKeyOf(t),
        };
  return { findings: f, proven };
}

/** `packageId:packageName:module:entity` per template identity (the fast path reuses identities). */
const TEMPLATE_KEYS = new WeakMap<TemplateIdentity, string>();

function templateKeyOf(t: TemplateIdentity): string {
  let k = TEMPLATE_KEYS.get(t);
  if (k === undefined) {
    k = `${t.packageId}:${t.packageName}:${t.moduleName}:${t.entityName}`;
    TEMPLATE_KEYS.set(t, k);
  }
  return k;
}

/**
 * Re-verifies one stored contract against its blob: the proof step's fast path answers a clean
 * pass whose recorded values agree (no findings); anything else takes the full proof step, whose
 * reasons make the findings. `blobIsPrivate`: nobody writes to `k.blob` meanwhile (a batch's).
 */
export function replayStoredContract(
  k: StoredContractInput,
  types: TypeEnv,
  profile: ReserveProfile,
  blobIsPrivate = false,
): ReplayedContractResult {
  const fast = verifyReserveProofFast({
    contractId: k.contractId,
    blob: k.blob,
    types,
    profile,
    sha256: sha256Node,
    sha256Binary: sha256NodeBinary,
    blobIsPrivate,
  });
  if (fast !== null && compareReserveAmounts(fast.fields, k).length === 0)
    return {
      findings: [],
      proven: {
        reserveA: fast.fields.reserveA,
        reserveB: fast.fields.reserveB,
        totalLpSupply: fast.fields.totalLpSupply,
        createdAtMicros: fast.createdAtMicros,
        template: templateKeyOf(fast.template),
      },
    };
  return replayStoredContractFull(k, types, profile);
}

/** Re-verifies one stored contract with the full proof step (the reference for the fast path). */
export function replayStoredContractFull(
  k: StoredContractInput,
  types: TypeEnv,
  profile: ReserveProfile,
): ReplayedContractResult {
  const proof = verifyReserveProof({
    contractId: k.contractId,
    blob: k.blob,
    types,
    profile,
    sha256: sha256Node,
  });
  return computeReplayFindings(k, proof);
}

/** Re-verifies every contract of a batch, in batch order. */
export function replayContractBatch(
  b: ContractBatch,
  types: TypeEnv,
  profile: ReserveProfile,
): ReplayedContractResult[] {
  const out: ReplayedContractResult[] = new Array(b.contractIds.length);
  for (let i = 0; i < b.contractIds.length; i++)
    out[i] = replayStoredContract(
      {
        contractId: b.contractIds[i] ?? '',
        poolId: b.poolIds[i] ?? '',
        blob: batchBlob(b, i),
        reserveA: b.reserveA[i] ?? '',
        reserveB: b.reserveB[i] ?? '',
        totalLpSupply: b.totalLpSupply[i] ?? '',
      },
      types,
      profile,
      // the batch owns its buffer and nobody writes to it
      true,
    );
  return out;
}
