/**
 * The first half of the proof step (docs/protocol/contract-id.md §0, §9): decode the created_event_blob,
 * type it with the Daml type environment, recompute the contract ID and compare it with the ID
 * embedded in the blob. The result, `ProofEvidence`, is plain data; ./reserve-proof.ts turns it
 * into the one `ReserveProof` (compare with the published ID, read the reserves via the profile).
 * Pure: the SHA-256 implementation is passed in. Never throws for a bad blob.
 */
import type { TemplateIdentity } from '../audit/snapshot.js';
import type { Value } from '../codec/value.js';
import type { HashContext } from '../hash/hash-context.js';
import type { Sha256 } from '../hash/sha256.js';
import { type ContractIdVerification, verifyContractId } from '../hash/verify-contract-id.js';
import { resolveTemplateCached, type TypeEnv } from '../types/type-env.js';

/** What decoding, typing and hashing one blob gave. */
export interface ProofEvidence {
  /** the recomputed contract ID against the ID embedded in the blob (not the published one) */
  readonly idStatus: 'verified' | 'mismatch' | 'could-not-check';
  /** "CODE: message" of every reason the recomputation failed or could not run */
  readonly reasons: readonly string[];
  /** the recomputed ID suffix when it could be computed */
  readonly recomputedContractId: string | null;
  /** null when the blob did not decode (then decodeError says why) */
  readonly decoded: {
    readonly embeddedContractId: string;
    readonly template: TemplateIdentity;
    readonly createdAtMicros: bigint;
    readonly createArg: Value;
    /** record field labels of the template from the type environment, or null */
    readonly fieldLabels: readonly string[] | null;
  } | null;
  readonly decodeError: string | null;
  /**
   * "CODE: message" of the first reason of the whole contract-ID verification, the comparison
   * with the published ID included (what the mirror records as the verification reason)
   */
  readonly idReason?: string | null;
  /**
   * the contract-ID verification the evidence was read from, as `verify-contract` gives it (the
   * decoded contract whole, every reason), for a view that shows more than the proof: the verifier page
   */
  readonly verification?: ContractIdVerification;
}

export interface ComputeProofEvidenceOptions {
  /** the published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob: bytes or base64 */
  readonly blob: string | Uint8Array;
  /** Daml types (needed for V12 contract IDs and for field labels) */
  readonly types?: TypeEnv | undefined;
  readonly sha256: Sha256;
  /** the hash functions' builder, caches and scratch (a ProofContext holds one; fresh when absent) */
  readonly hash?: HashContext | undefined;
  /** field labels and template identities remembered between blobs (a ProofContext holds one) */
  readonly memo?: EvidenceMemo | undefined;
}

/** What the evidence step remembers between blobs (held by a ProofContext). */
export class EvidenceMemo {
  /** record field labels per record type (computed once per type definition) */
  readonly labels = new WeakMap<object, readonly string[]>();
  /** template identities by package id (a replay sees the same few templates for every contract) */
  readonly identities = new Map<string, TemplateIdentity[]>();
}

function fieldLabelsOf(
  memo: EvidenceMemo | undefined,
  types: TypeEnv | undefined,
  ref: { packageId: string; module: readonly string[]; entity: readonly string[] },
  packageName: string,
): readonly string[] | null {
  if (types === undefined) return null;
  const t = resolveTemplateCached(types, ref, packageName);
  if (!t.ok) return null;
  let labels = memo?.labels.get(t.dataType);
  if (labels === undefined) {
    labels = t.dataType.fields.map((f) => f.name);
    memo?.labels.set(t.dataType, labels);
  }
  return labels;
}

function templateIdentityOf(
  memo: EvidenceMemo | undefined,
  ref: { packageId: string; module: readonly string[]; entity: readonly string[] },
  packageName: string,
): TemplateIdentity {
  const moduleName = ref.module.join('.');
  const entityName = ref.entity.join('.');
  if (memo === undefined) return { packageId: ref.packageId, packageName, moduleName, entityName };
  const IDENTITIES = memo.identities;
  let list = IDENTITIES.get(ref.packageId);
  if (list === undefined) {
    if (IDENTITIES.size >= 1024) IDENTITIES.clear();
    list = [];
    IDENTITIES.set(ref.packageId, list);
  }
  for (const t of list)
    if (t.packageName === packageName && t.moduleName === moduleName && t.entityName === entityName) return t;
  const t: TemplateIdentity = { packageId: ref.packageId, packageName, moduleName, entityName };
  if (list.length < 64) list.push(t);
  return t;
}

/** Decodes, types and hashes one blob (decode → type → hash); never throws. */
export function computeProofEvidence(o: ComputeProofEvidenceOptions): ProofEvidence {
  const v = verifyContractId({
    contractId: o.contractId,
    blob: o.blob,
    types: o.types,
    sha256: o.sha256,
    context: o.hash,
  });
  const first = v.reasons[0];
  const idReason = first === undefined ? null : `${first.code}: ${first.message}`;
  // the published-vs-embedded comparison is made by assessReserveProof, from the decoded blob
  const reasons = v.reasons.filter((r) => r.code !== 'CONTRACT_ID_MISMATCH');
  const idStatus = reasons.some((r) => r.mismatch)
    ? 'mismatch'
    : reasons.length > 0
      ? 'could-not-check'
      : 'verified';
  const c = v.contract;
  if (c === null)
    return {
      idStatus: 'could-not-check',
      reasons: reasons.map((r) => `${r.code}: ${r.message}`),
      recomputedContractId: null,
      decoded: null,
      decodeError: v.reasons.map((r) => `${r.code}: ${r.message}`).join('; '),
      idReason,
      verification: v,
    };
  const ref = c.templateId;
  return {
    idStatus,
    reasons: reasons.map((r) => `${r.code}: ${r.message}`),
    recomputedContractId: v.expectedSuffix,
    decoded: {
      embeddedContractId: v.embeddedContractId ?? '',
      template: templateIdentityOf(o.memo, ref, c.packageName),
      createdAtMicros: c.createdAt,
      createArg: c.createArg,
      fieldLabels: fieldLabelsOf(o.memo, o.types, ref, c.packageName),
    },
    decodeError: null,
    idReason,
    verification: v,
  };
}
