/**
 * THE proof step (the issue "one proof step"; docs/protocol/contract-id.md §0, §9): decode → type → hash
 * (./evidence.ts) → compare the recomputed, embedded and published contract IDs → read the
 * reserves through the reserve profile (./profile.ts). One result type, `ReserveProof`, with one
 * status vocabulary, consumed alike by the audit's proof checks (src/core/audit/proof-checks.ts),
 * the snapshot recording (the mirror's verification status) and replay:
 *
 * - `proven`: the ID recomputes from the blob, equals the embedded and the published ID, the
 *   template is in the profile and the profile read the reserve fields: `provenFields` is set.
 * - `failed`: a definite failure — the blob does not decode, the ID does not recompute, the
 *   published ID is not the embedded one, or the template is not in the profile.
 * - `unverifiable`: nothing definite is wrong, but the proof could not be completed (unsupported
 *   ID version, missing types, fields the profile cannot read).
 *
 * A failure wins over an unverifiable reason. Pure; never throws for a bad blob.
 *
 * Detail: by default the step keeps everything a report shows (`evidence`: the decoded contract,
 * the recomputed ID, the reasons). With `detail: 'verdict'` and a context holding a verdict engine
 * (./proof-context.ts), a contract the engine verifies and whose profile fields read cleanly from
 * its bytes is answered without decoding it: the same status, template, creation time and fields,
 * and `evidence: null` (nothing needed explaining). Everything else takes the full step, so the
 * findings are always the full step's (test/verdict/engine-cases.test.ts compares them).
 */
import type { TemplateIdentity } from '../audit/snapshot.js';
import type { Sha256 } from '../hash/sha256.js';
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';
import { computeProofEvidence, type ProofEvidence } from './evidence.js';
import {
  extractProvenFields,
  findTemplateProfile,
  type ProvenFields,
  type ReserveProfile,
  type TemplateProfile,
} from './profile.js';
import type { ProofContext } from './proof-context.js';

export type ReserveProofStatus = 'proven' | 'failed' | 'unverifiable';

/** The contract ID alone: recomputed = embedded = published. */
export type ContractIdStatus = 'verified' | 'mismatch' | 'could-not-check';

/** Why a proof is not proven (stable codes). */
export type ProofReasonCode =
  /** the blob is not valid base64 or does not decode as a created event (failed) */
  | 'BLOB_MALFORMED'
  /** the contract ID recomputed from the blob is not the embedded one (failed) */
  | 'ID_NOT_RECOMPUTED'
  /** the published contract ID is not the one embedded in the blob (failed) */
  | 'PUBLISHED_ID_MISMATCH'
  /** the contract ID could not be recomputed: unsupported version, missing types (unverifiable) */
  | 'ID_UNVERIFIABLE'
  /** the blob's template is not in the reserve profile (failed) */
  | 'TEMPLATE_UNEXPECTED'
  /** the profile could not read the reserve fields from the create argument (unverifiable) */
  | 'FIELDS_UNREADABLE';

export interface ProofReason {
  readonly code: ProofReasonCode;
  readonly message: string;
}

/** `E`: the evidence kept; `ProofEvidence | null` for the verdict detail (see above). */
export interface ReserveProof<E extends ProofEvidence | null = ProofEvidence> {
  /** the published contract ID */
  readonly contractId: string;
  readonly status: ReserveProofStatus;
  /** empty when proven; in the order the step found them */
  readonly reasons: readonly ProofReason[];
  readonly idStatus: ContractIdStatus;
  /** "CODE: message" of the first reason of the contract-ID verification, or null */
  readonly idReason: string | null;
  /** what decoding, typing and hashing gave; null only when the verdict detail proved it without */
  readonly evidence: E;
  /** the blob's template and ledger creation time (null when the blob did not decode) */
  readonly template: TemplateIdentity | null;
  readonly createdAtMicros: bigint | null;
  /** the profile entry of the blob's template, or null */
  readonly templateProfile: TemplateProfile | null;
  /** the reserve fields read through the profile, trusted or not (null when unreadable) */
  readonly blobFields: ProvenFields | null;
  /** `blobFields` when status is `proven`, else null: the only values later checks may trust */
  readonly provenFields: ProvenFields | null;
}

export interface VerifyReserveProofOptions {
  /** the published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob: bytes or base64 */
  readonly blob: string | Uint8Array;
  /** Daml types (needed for V12 contract IDs and for field labels) */
  readonly types?: TypeEnv | undefined;
  readonly profile: ReserveProfile;
  readonly sha256: Sha256;
  /** 'full' (default): keep the evidence; 'verdict': the engine may answer a clean proof (see above) */
  readonly detail?: 'full' | 'verdict' | undefined;
  /** the engine, plans, caches and scratch repeated proofs share (needed for the verdict detail; fresh when absent) */
  readonly context?: ProofContext | undefined;
}

/** The proof has the reason `code` (e.g. to turn it into a finding). */
export function hasProofReason(p: ReserveProof<ProofEvidence | null>, code: ProofReasonCode): boolean {
  return p.reasons.some((r) => r.code === code);
}

/** Compares and reads the reserves (compare → profile) from what decoding and hashing gave. */
export function assessReserveProof(
  contractId: string,
  evidence: ProofEvidence,
  profile: ReserveProfile,
): ReserveProof {
  const reasons: ProofReason[] = [];
  const idReason = evidence.idReason ?? evidence.reasons[0] ?? evidence.decodeError ?? null;
  const d = evidence.decoded;
  if (d === null) {
    reasons.push({ code: 'BLOB_MALFORMED', message: evidence.decodeError ?? 'the blob did not decode' });
    return {
      contractId,
      status: 'failed',
      reasons,
      idStatus: 'could-not-check',
      idReason,
      evidence,
      template: null,
      createdAtMicros: null,
      templateProfile: null,
      blobFields: null,
      provenFields: null,
    };
  }
  // compare: recomputed vs embedded vs published
  if (d.embeddedContractId !== contractId)
    reasons.push({
      code: 'PUBLISHED_ID_MISMATCH',
      message: `the published contract ID differs from the ID embedded in the blob (${d.embeddedContractId})`,
    });
  if (evidence.idStatus === 'mismatch')
    reasons.push({ code: 'ID_NOT_RECOMPUTED', message: evidence.reasons.join('; ') });
  else if (evidence.idStatus === 'could-not-check')
    reasons.push({ code: 'ID_UNVERIFIABLE', message: evidence.reasons.join('; ') });
  const idStatus: ContractIdStatus =
    d.embeddedContractId !== contractId || evidence.idStatus === 'mismatch' ? 'mismatch' : evidence.idStatus;
  // read the reserves through the profile
  const templateProfile = findTemplateProfile(profile, d.template);
  let blobFields: ProvenFields | null = null;
  if (templateProfile === null) {
    const t = d.template;
    reasons.push({
      code: 'TEMPLATE_UNEXPECTED',
      message: `template ${t.packageName}:${t.moduleName}:${t.entityName} is not in the reserve profile "${profile.name}"`,
    });
  } else {
    const ex = extractProvenFields(templateProfile, d.createArg, d.fieldLabels);
    if (ex.ok) blobFields = ex.value;
    else reasons.push({ code: 'FIELDS_UNREADABLE', message: ex.reason });
  }
  const failed = reasons.some((r) => r.code !== 'ID_UNVERIFIABLE' && r.code !== 'FIELDS_UNREADABLE');
  const status: ReserveProofStatus = failed ? 'failed' : reasons.length > 0 ? 'unverifiable' : 'proven';
  return {
    contractId,
    status,
    reasons,
    idStatus,
    idReason,
    evidence,
    template: d.template,
    createdAtMicros: d.createdAtMicros,
    templateProfile,
    blobFields,
    provenFields: status === 'proven' ? blobFields : null,
  };
}

/**
 * Verifies one reserve proof: decode → type → hash → compare → reserves via the profile.
 * Never throws for a bad blob: the status and reasons say what went wrong.
 */
export function verifyReserveProof(
  o: VerifyReserveProofOptions & { readonly detail: 'verdict' },
): ReserveProof<ProofEvidence | null>;
export function verifyReserveProof(o: VerifyReserveProofOptions): ReserveProof;
export function verifyReserveProof(o: VerifyReserveProofOptions): ReserveProof<ProofEvidence | null> {
  if (o.detail === 'verdict' && o.context !== undefined && typeof o.blob !== 'string') {
    const quick = verifyByEngine(o.contractId, o.blob, o.types, o.profile, o.context);
    if (quick !== null) return quick;
  }
  const evidence = computeProofEvidence({
    contractId: o.contractId,
    blob: o.blob,
    types: o.types,
    sha256: o.sha256,
    hash: o.context?.hash,
    memo: o.context?.evidence,
  });
  return assessReserveProof(o.contractId, evidence, o.profile);
}

/** The verdict detail's answer for a clean proof the engine verifies, or null (take the full step). */
function verifyByEngine(
  contractId: string,
  blob: Uint8Array,
  types: TypeEnv | undefined,
  profile: ReserveProfile,
  ctx: ProofContext,
): ReserveProof<null> | null {
  const engine = ctx.engine;
  if (engine === null) return null;
  const v = engine.verify(blob, contractId, types);
  if (v === null) return null;
  const s = v.spans;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.length);
  // V10/V11 need no types for the ID, but the profile's labels come from them when given
  let lookup: TemplateLookup | null = v.resolution;
  if (lookup === null && types !== undefined)
    lookup = ctx.hash.templates.lookup(types, blob, view, s.nameAt, s.nameStop, s.idAt, s.idStop);
  const plan = ctx.plans.planOfBytes(blob, view, s, types, profile, lookup);
  if (plan.slots === null || plan.lookup !== lookup) return null;
  const fields = ctx.fields.readFields(blob, s.argAt, s.argStop, plan.slots);
  if (fields === null) return null;
  return {
    contractId,
    status: 'proven',
    reasons: [],
    idStatus: 'verified',
    idReason: null,
    evidence: null,
    template: plan.identity,
    createdAtMicros: BigInt(s.createdAtMicros),
    templateProfile: plan.templateProfile,
    blobFields: fields,
    provenFields: fields,
  };
}
