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
import type { TemplateIdentity } from '../audit/snapshot.js';
import { decodeCreatedEventBlob } from '../codec/blob-decoder.js';
import type { DecodedContract, TemplateId } from '../codec/contract.js';
import type { Value } from '../codec/value.js';
import { computeContractHash } from '../hash/contract-hash.js';
import { parseContractIdEqualTo } from '../hash/contract-id.js';
import type { Sha256 } from '../hash/sha256.js';
import { computeTypedContractHash } from '../hash/typed-value-hash.js';
import { computeUnicum } from '../hash/unicum.js';
import { resolveTemplateCached, type TemplateLookup, type TypeEnv } from '../types/type-env.js';
import {
  type FieldLocator,
  type FieldRole,
  findTemplateProfile,
  locateFieldIndex,
  PROVEN_FIELD_KEYS,
  type ProvenFields,
  type ReserveProfile,
  readInstrument,
} from './profile.js';

/** A proven reserve contract, as verifyReserveProof would prove it. */
export interface FastReserveProof {
  readonly template: TemplateIdentity;
  readonly createdAtMicros: bigint;
  /** equal to verifyReserveProof's `provenFields` */
  readonly fields: ProvenFields;
}

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
}

/** One profile field, located once per template. */
interface FieldSlot {
  readonly role: FieldRole;
  readonly key: keyof ProvenFields;
  readonly index: number;
  readonly type: FieldLocator['type'];
}

/** What a template contributes to every proof of its contracts. */
interface TemplatePlan {
  readonly packageName: string;
  readonly module: readonly string[];
  readonly entity: readonly string[];
  /** the type environment's answer this plan was made from (null: no types) */
  readonly lookup: TemplateLookup | null;
  readonly identity: TemplateIdentity;
  /** null: the fast path cannot prove this template (not in the profile, unlocatable fields) */
  readonly slots: readonly FieldSlot[] | null;
}

const NO_TYPES: object = {};
/** Plans per profile, per type environment, per package id. */
const PLANS = new WeakMap<ReserveProfile, WeakMap<object, Map<string, TemplatePlan[]>>>();
/** Bounds for hostile inputs with many templates (a plan is small; the lists are scanned). */
const MAX_PACKAGES = 1024;
const MAX_PLANS_PER_PACKAGE = 64;

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function makePlan(
  t: TemplateId,
  packageName: string,
  lookup: TemplateLookup | null,
  profile: ReserveProfile,
): TemplatePlan {
  const identity: TemplateIdentity = {
    packageId: t.packageId,
    packageName,
    moduleName: t.module.join('.'),
    entityName: t.entity.join('.'),
  };
  const labels = lookup?.ok === true ? lookup.dataType.fields.map((f) => f.name) : null;
  const tp = findTemplateProfile(profile, identity);
  let slots: FieldSlot[] | null = null;
  if (tp !== null) {
    slots = [];
    for (const [role, l] of Object.entries(tp.fields) as [FieldRole, FieldLocator][]) {
      const index = locateFieldIndex(role, l, labels);
      if (typeof index === 'string') {
        slots = null;
        break;
      }
      slots.push({ role, key: PROVEN_FIELD_KEYS[role], index, type: l.type });
    }
  }
  return { packageName, module: [...t.module], entity: [...t.entity], lookup, identity, slots };
}

function planOf(c: DecodedContract, types: TypeEnv | undefined, profile: ReserveProfile): TemplatePlan {
  let byEnv = PLANS.get(profile);
  if (byEnv === undefined) {
    byEnv = new WeakMap();
    PLANS.set(profile, byEnv);
  }
  const envKey = types ?? NO_TYPES;
  let byPackage = byEnv.get(envKey);
  if (byPackage === undefined) {
    byPackage = new Map();
    byEnv.set(envKey, byPackage);
  }
  const t = c.templateId;
  // resolveTemplateCached is itself remembered per environment and changes when packages are
  // added: a plan made from an older answer is made again
  const lookup = types === undefined ? null : resolveTemplateCached(types, t, c.packageName);
  let list = byPackage.get(t.packageId);
  if (list === undefined) {
    if (byPackage.size >= MAX_PACKAGES) byPackage.clear();
    list = [];
    byPackage.set(t.packageId, list);
  }
  for (let i = 0; i < list.length; i++) {
    const p = list[i] as TemplatePlan;
    if (p.packageName === c.packageName && sameNames(p.entity, t.entity) && sameNames(p.module, t.module)) {
      if (p.lookup === lookup) return p;
      const fresh = makePlan(t, c.packageName, lookup, profile);
      list[i] = fresh;
      return fresh;
    }
  }
  const p = makePlan(t, c.packageName, lookup, profile);
  if (list.length < MAX_PLANS_PER_PACKAGE) list.push(p);
  return p;
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
  try {
    const c = decodeCreatedEventBlob(o.blob, o.blobIsPrivate === true ? { copyInput: false } : undefined);
    // published = embedded, read straight from the published hex
    const id = parseContractIdEqualTo(o.contractId, c.contractId);
    if (id === null) return null;
    const plan = planOf(c, o.types, o.profile);
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
