/**
 * The proof step's fast path for callers that need only "proven, with these reserves" (replay,
 * issue 11 items 2–3): decode → type → hash → compare → read the reserves, like
 * verifyReserveProof, but without the evidence, reasons, hex strings and result objects a report
 * needs, and with everything that depends only on the template — its type resolution (V12, DAR
 * types), its record labels, its reserve-profile entry and the index of every profile field —
 * worked out once per template and remembered.
 *
 * It answers only the clean case: a `proven` contract, with exactly the template, creation time
 * and fields verifyReserveProof gives (test/proof/reserve-proof-fast.test.ts checks this on every
 * real vector, simulator contracts of every pool shape and fuzz cases). For anything else — a
 * decode error, an ID that does not recompute, a published ID that is not the embedded one, a
 * template not in the profile, unreadable fields, a typing error — it returns null, and the
 * caller runs verifyReserveProof for the exact status and reasons. Pure; never throws.
 */
import { decodeCreatedEventBlob } from '../codec/blob-decoder.js';
import type { Value } from '../codec/value.js';
import { computeContractHash } from '../hash/contract-hash.js';
import { parseContractIdEqualTo } from '../hash/contract-id.js';
import type { Sha256, Sha256Binary } from '../hash/sha256.js';
import { computeTypedContractHash } from '../hash/typed-value-hash.js';
import { computeUnicum } from '../hash/unicum.js';
import type { TypeEnv } from '../types/type-env.js';
import { type ProvenFields, type ReserveProfile, readInstrument } from './profile.js';
import { type FastReserveProof, verifyReserveProofOnePass } from './reserve-proof-one-pass.js';
import { type FieldSlot, planOf } from './template-plan.js';

export type { FastReserveProof } from './reserve-proof-one-pass.js';

export interface VerifyReserveProofFastOptions {
  /** the published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob's bytes */
  readonly blob: Uint8Array;
  /** Daml types (needed for V12 contract IDs and for field labels) */
  readonly types?: TypeEnv | undefined;
  readonly profile: ReserveProfile;
  readonly sha256: Sha256;
  /**
   * true when nobody writes to `blob` while the result is used: the decoder then reads it in place
   * instead of taking a private copy (replay's batch buffers)
   */
  readonly blobIsPrivate?: boolean;
  /**
   * the same SHA-256 as `sha256` with a binary-string digest (src/io/node-sha256.ts): when given,
   * the one pass from the bytes (./reserve-proof-one-pass.ts) is tried first
   */
  readonly sha256Binary?: Sha256Binary | undefined;
}

/** The profile's fields of a create argument, or null where extractProvenFields would fail. */
function readFields(slots: readonly FieldSlot[], arg: Value): ProvenFields | null {
  if (arg.kind !== 'record') return null;
  const out: Record<string, unknown> = { poolId: null, tokenA: null, tokenB: null, feeRate: null };
  for (const s of slots) {
    const v = arg.fields[s.index];
    if (v === undefined) return null;
    if (s.type === 'Numeric') {
      if (v.kind !== 'numeric') return null;
      out[s.key] = v.value;
    } else if (s.type === 'Text') {
      if (v.kind !== 'text') return null;
      out[s.key] = v.value;
    } else {
      const token = readInstrument(v);
      if (token === null) return null;
      out[s.key] = token;
    }
  }
  return out as unknown as ProvenFields;
}

/** unicum (32 bytes) equals bytes 37..69 of the 69-byte contract ID. */
function unicumEquals(unicum: Uint8Array, idBytes: Uint8Array): boolean {
  if (unicum.length !== 32 || idBytes.length !== 69) return false;
  let d = 0;
  for (let i = 0; i < 32; i++) d |= (unicum[i] as number) ^ (idBytes[37 + i] as number);
  return d === 0;
}

/**
 * The proven reserves of a contract, or null when it is not a clean `proven` (then call
 * verifyReserveProof for the status and reasons). Never throws.
 */
export function verifyReserveProofFast(o: VerifyReserveProofFastOptions): FastReserveProof | null {
  if (o.sha256Binary !== undefined) {
    const one = verifyReserveProofOnePass({
      contractId: o.contractId,
      blob: o.blob,
      types: o.types,
      profile: o.profile,
      sha256Binary: o.sha256Binary,
    });
    if (one !== null) return one;
  }
  try {
    const c = decodeCreatedEventBlob(o.blob, o.blobIsPrivate === true ? { copyInput: false } : undefined);
    // published = embedded, read straight from the published hex
    const id = parseContractIdEqualTo(o.contractId, c.contractId);
    if (id === null) return null;
    const plan = planOf(c.templateId, c.packageName, o.types, o.profile);
    if (plan.slots === null) return null;
    let contractHash: Uint8Array;
    if (id.version === 'v12') {
      if (o.types === undefined || plan.lookup === null || !plan.lookup.ok) return null;
      contractHash = computeTypedContractHash(c, o.types, plan.lookup, o.sha256);
    } else contractHash = computeContractHash(id.version, c, o.sha256);
    const salt = c.authenticationData.salt;
    if (salt === null) return null;
    const unicum = computeUnicum(
      {
        salt: salt.bytes,
        createdAt: c.createdAt,
        signatories: c.signatories,
        stakeholders: c.stakeholders,
        key: c.key,
        contractHash,
      },
      o.sha256,
    );
    if (!unicumEquals(unicum, id.bytes)) return null;
    const fields = readFields(plan.slots, c.createArg);
    if (fields === null) return null;
    return { template: plan.identity, createdAtMicros: c.createdAt, fields };
  } catch {
    // a decode, typing or hashing error: the full step says which
    return null;
  }
}
