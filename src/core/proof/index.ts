/** The one proof step: decode → type → hash → compare → reserves via the profile (./reserve-proof.ts). */

export type { AmountDifference, ClaimedReserveAmounts } from './compare-fields.js';
export { compareReserveAmounts } from './compare-fields.js';
export type { ComputeProofEvidenceOptions, ProofEvidence } from './evidence.js';
export { computeProofEvidence, EvidenceMemo } from './evidence.js';
export type {
  ExtractResult,
  FieldLocator,
  FieldRole,
  FieldType,
  ProvenFields,
  ReserveProfile,
  TemplateProfile,
} from './profile.js';
export {
  DEFAULT_RESERVE_PROFILE,
  extractProvenFields,
  findTemplateProfile,
  locateFieldIndex,
  PROVEN_FIELD_KEYS,
  parseReserveProfile,
  readInstrument,
} from './profile.js';
export type { ProofContext } from './proof-context.js';
export { createProofContext } from './proof-context.js';
export type {
  ContractIdStatus,
  ProofReason,
  ProofReasonCode,
  ReserveProof,
  ReserveProofStatus,
  VerifyReserveProofOptions,
} from './reserve-proof.js';
export { assessReserveProof, hasProofReason, verifyReserveProof } from './reserve-proof.js';
