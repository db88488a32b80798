/**
 * The proof step in one pass from the blob's bytes (issue 11 items 2–3), for replay's
 * proven-contract path: the one-pass verdict (src/core/hash/one-pass-verdict.ts) recomputes the
 * contract ID with no decoded contract, then the reserve profile's fields are read straight from
 * the create argument's bytes, where the walk found them: a shallow scan of the top-level record
 * to the profile's field indexes (the template plan, ./template-plan.ts, found by the template's
 * bytes), and only those few values turned into strings.
 *
 * Like the verdict it answers only the clean case — a contract verifyReserveProof would call
 * `proven` — with the same template, creation time and fields (test/proof/reserve-proof-fast.test.ts
 * compares them on every simulator pool shape, the real vectors and fuzz cases); anything else
 * gives null and the caller takes the decoding fast path or the full step. Pure; never throws.
 */
import type { TemplateIdentity } from '../audit/snapshot.js';
import { BytesMemo } from '../codec/bytes-memo.js';
import { CURRENT_VALUE } from '../codec/schema.js';
import { decodeUtf8 } from '../codec/utf8.js';
import { WIRE_LEN } from '../codec/wire-reader.js';
import { versionOfIdHex } from '../hash/contract-id.js';
import {
  computeTypedVerdictOnePass,
  computeVerdictOnePass,
  lastOnePassSpans,
} from '../hash/one-pass-verdict.js';
import type { Sha256Binary } from '../hash/sha256.js';
import { decodeIdentifierOfBytes, lookupTemplateOfBytes } from '../hash/template-of-bytes.js';
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';
import type { ProvenFields, ReserveProfile } from './profile.js';
import { type FieldSlot, planOf, type TemplatePlan } from './template-plan.js';

/** A proven reserve contract, as verifyReserveProof would prove it. */
export interface FastReserveProof {
  readonly template: TemplateIdentity;
  readonly createdAtMicros: bigint;
  /** equal to verifyReserveProof's `provenFields` */
  readonly fields: ProvenFields;
}

export interface VerifyReserveProofOnePassOptions {
  /** the published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob's bytes (read in place, not kept) */
  readonly blob: Uint8Array;
  /** Daml types (needed for V12 contract IDs and for field labels) */
  readonly types?: TypeEnv | undefined;
  readonly profile: ReserveProfile;
  /** SHA-256 with a binary-string digest (src/io/node-sha256.ts `sha256NodeBinary`) */
  readonly sha256Binary: Sha256Binary;
}

const TWO_32 = 4294967296;
const L = CURRENT_VALUE;
const K_NUMERIC = 6;
const K_PARTY = 7;
const K_TEXT = 8;
const K_RECORD = 13;
const TAG_RECORD = (((L.fieldByKind[K_RECORD] as number) << 3) | WIRE_LEN) >>> 0;
const TAG_FIELD = ((L.recordFields << 3) | WIRE_LEN) >>> 0;
const TAG_FIELD_VALUE = ((L.fieldValue << 3) | WIRE_LEN) >>> 0;
const latin1 = new TextDecoder('latin1');
/** at most this many top-level fields are located (a profile's index beyond: the other paths) */
const MAX_FIELDS = 256;
/** [start, stop) of each top-level field's Value message */
const fieldSpans = new Int32Array(2 * MAX_FIELDS);

/**
 * Plans by the blob's `package_name` + `template_id` bytes (BytesMemo: compared byte for byte, no
 * string), per profile and type environment; dropped when packages were added to the environment.
 */
const NO_TYPES: object = {};
const PLANS = new WeakMap<ReserveProfile, WeakMap<object, { size: number; memo: BytesMemo<TemplatePlan> }>>();

function planOfBytes(
  buf: Uint8Array,
  view: DataView,
  types: TypeEnv | undefined,
  profile: ReserveProfile,
  lookup: TemplateLookup | null,
): TemplatePlan {
  const s = lastOnePassSpans;
  let byEnv = PLANS.get(profile);
  if (byEnv === undefined) {
    byEnv = new WeakMap();
    PLANS.set(profile, byEnv);
  }
  const envKey = types ?? NO_TYPES;
  const size = types === undefined ? 0 : types.packages.size;
  let e = byEnv.get(envKey);
  if (e === undefined || e.size !== size) {
    e = { size, memo: new BytesMemo(64, 2048) };
    byEnv.set(envKey, e);
  }
  const hit = e.memo.get(buf, view, s.nameAt, s.idStop);
  // a plan made from an older answer of the environment is made again
  if (hit !== undefined && hit.lookup === lookup) return hit;
  const plan = planOf(
    decodeIdentifierOfBytes(buf, s.idAt, s.idStop),
    latin1.decode(buf.subarray(s.nameAt, s.nameStop)),
    types,
    profile,
  );
  e.memo.set(buf, s.nameAt, s.idStop, plan);
  return plan;
}

/** A length (varint of at most 3 bytes: the blob is ≤ the decoder's byte limit) at `p`; sets `at`. */
let at = 0;
function lengthAt(buf: Uint8Array, p: number): number {
  let b = buf[p] as number;
  if (b < 0x80) {
    at = p + 1;
    return b;
  }
  let n = b & 0x7f;
  let shift = 7;
  for (let i = 1; i < 5; i++) {
    b = buf[p + i] as number;
    n += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      at = p + i + 1;
      return n;
    }
    shift += 7;
  }
  return -1;
}

/**
 * Records the Value span of each top-level field of the create argument (a record Value the
 * verdict's walk accepted, so every length is in bounds); the number of fields, or -1.
 */
function locateFields(buf: Uint8Array, argAt: number, argStop: number): number {
  if (buf[argAt] !== TAG_RECORD) return -1;
  const len = lengthAt(buf, argAt + 1);
  if (len < 0 || at + len !== argStop) return -1;
  let p = at;
  let n = 0;
  while (p < argStop) {
    if (n === MAX_FIELDS || buf[p] !== TAG_FIELD) return -1;
    const fLen = lengthAt(buf, p + 1);
    const fStop = at + fLen;
    if (fLen < 0 || buf[at] !== TAG_FIELD_VALUE) return -1;
    const vLen = lengthAt(buf, at + 1);
    if (vLen < 0 || at + vLen !== fStop) return -1;
    fieldSpans[2 * n] = at;
    fieldSpans[2 * n + 1] = fStop;
    n++;
    p = fStop;
  }
  return n;
}

/** The kind of the Value message at `buf[v, stop)` (its content from `at`), or 0. */
function kindAt(buf: Uint8Array, v: number, stop: number): number {
  const tag = buf[v] as number;
  if (tag >= 0x80 || (tag & 7) !== WIRE_LEN) return 0;
  const kind = L.kindByField[tag >>> 3] ?? 0;
  const len = lengthAt(buf, v + 1);
  return len >= 0 && at + len === stop ? kind : 0;
}

/** The string of a Value of kind `want` at `buf[v, stop)`, or null. */
function stringAt(buf: Uint8Array, v: number, stop: number, want: number): string | null {
  if (kindAt(buf, v, stop) !== want) return null;
  return decodeUtf8(buf, at, stop);
}

/** An InstrumentId record {admin: Party, id: Text} at `buf[v, stop)` as a token key, or null. */
function instrumentAt(buf: Uint8Array, v: number, stop: number): { admin: string; id: string } | null {
  if (kindAt(buf, v, stop) !== K_RECORD) return null;
  const vals: number[] = [];
  let p = at;
  while (p < stop) {
    if (vals.length === 4 || buf[p] !== TAG_FIELD) return null;
    const fLen = lengthAt(buf, p + 1);
    const fStop = at + fLen;
    if (fLen < 0 || buf[at] !== TAG_FIELD_VALUE) return null;
    const vLen = lengthAt(buf, at + 1);
    if (vLen < 0 || at + vLen !== fStop) return null;
    vals.push(at, fStop);
    p = fStop;
  }
  if (vals.length !== 4) return null;
  const admin = stringAt(buf, vals[0] as number, vals[1] as number, K_PARTY);
  const id = admin === null ? null : stringAt(buf, vals[2] as number, vals[3] as number, K_TEXT);
  return admin === null || id === null ? null : { admin, id };
}

/** The profile's fields from the located spans, or null where extractProvenFields would fail. */
function readFieldsOfBytes(buf: Uint8Array, slots: readonly FieldSlot[], n: number): ProvenFields | null {
  const out: Record<string, unknown> = { poolId: null, tokenA: null, tokenB: null, feeRate: null };
  for (const s of slots) {
    if (s.index >= n) return null;
    const v = fieldSpans[2 * s.index] as number;
    const stop = fieldSpans[2 * s.index + 1] as number;
    const value =
      s.type === 'Numeric'
        ? stringAt(buf, v, stop, K_NUMERIC)
        : s.type === 'Text'
          ? stringAt(buf, v, stop, K_TEXT)
          : instrumentAt(buf, v, stop);
    if (value === null) return null;
    out[s.key] = value;
  }
  return out as unknown as ProvenFields;
}

/**
 * The proven reserves of a contract in one pass from its bytes, or null when this path does not
 * answer (then the decoding fast path or verifyReserveProof). Never throws.
 */
export function verifyReserveProofOnePass(o: VerifyReserveProofOnePassOptions): FastReserveProof | null {
  const version = versionOfIdHex(o.contractId);
  if (version === null) return null;
  const buf = o.blob;
  const types = o.types;
  try {
    let lookup: TemplateLookup | null = null;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    if (version === 'v12') {
      if (types === undefined) return null;
      const v = computeTypedVerdictOnePass(buf, o.contractId, types, o.sha256Binary);
      if (v === null) return null;
      lookup = v.resolution;
    } else {
      if (computeVerdictOnePass(buf, o.contractId, version, o.sha256Binary) === null) return null;
      const s = lastOnePassSpans;
      if (types !== undefined)
        lookup = lookupTemplateOfBytes(types, buf, view, s.nameAt, s.nameStop, s.idAt, s.idStop);
    }
    const plan = planOfBytes(buf, view, types, o.profile, lookup);
    if (plan.slots === null || plan.lookup !== lookup) return null;
    const s = lastOnePassSpans;
    const n = locateFields(buf, s.argAt, s.argStop);
    if (n < 0) return null;
    const fields = readFieldsOfBytes(buf, plan.slots, n);
    if (fields === null) return null;
    return {
      template: plan.identity,
      createdAtMicros: BigInt(s.microsHi * TWO_32 + s.microsLo),
      fields,
    };
  } catch {
    // nothing here should throw; whatever did, the other paths say what it is
    return null;
  }
}
