/**
 * What a template contributes to every reserve proof of its contracts, worked out once and
 * remembered (the proof step's verdict detail, ./reserve-proof.ts): its type resolution (V12, DAR
 * types), its identity, its reserve-profile entry and the index of every profile field in the
 * create argument's record. Plans are kept in a `TemplatePlans` the caller holds (./proof-context.ts),
 * per profile, per type environment and per template bytes, bounded for hostile inputs with many
 * templates.
 */
import type { TemplateIdentity } from '../audit/snapshot.js';
import { BytesMemo } from '../codec/bytes-memo.js';
import type { TemplateId } from '../codec/contract.js';
import { decodeIdentifierOfBytes } from '../hash/template-of-bytes.js';
import { resolveTemplateCached, type TemplateLookup, type TypeEnv } from '../types/type-env.js';
import type { BlobSpans } from '../verdict/engine.js';
import {
  type FieldLocator,
  type FieldRole,
  findTemplateProfile,
  locateFieldIndex,
  PROVEN_FIELD_KEYS,
  type ProvenFields,
  type ReserveProfile,
  type TemplateProfile,
} from './profile.js';

/** One profile field, located once per template. */
export interface FieldSlot {
  readonly role: FieldRole;
  readonly key: keyof ProvenFields;
  readonly index: number;
  readonly type: FieldLocator['type'];
}

/** What a template contributes to every proof of its contracts. */
export interface TemplatePlan {
  readonly packageName: string;
  readonly module: readonly string[];
  readonly entity: readonly string[];
  /** the type environment's answer this plan was made from (null: no types) */
  readonly lookup: TemplateLookup | null;
  readonly identity: TemplateIdentity;
  /** null: the fast path cannot prove this template (not in the profile, unlocatable fields) */
  readonly slots: readonly FieldSlot[] | null;
  /** the template's reserve-profile entry (null: not in the profile) */
  readonly templateProfile: TemplateProfile | null;
}

const NO_TYPES: object = {};
/** Bounds for hostile inputs with many templates (a plan is small; the lists are scanned). */
const MAX_PACKAGES = 1024;
const MAX_PLANS_PER_PACKAGE = 64;
const latin1 = new TextDecoder('latin1');

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
  return {
    packageName,
    module: [...t.module],
    entity: [...t.entity],
    lookup,
    identity,
    slots,
    templateProfile: tp,
  };
}

/** The per-environment map of `profile`, made empty the first time the profile is met. */
function byEnvironmentOf<V>(
  byProfile: WeakMap<ReserveProfile, WeakMap<object, V>>,
  profile: ReserveProfile,
): WeakMap<object, V> {
  let byEnv = byProfile.get(profile);
  if (byEnv === undefined) {
    byEnv = new WeakMap();
    byProfile.set(profile, byEnv);
  }
  return byEnv;
}

/** The plans of every template met, per profile and type environment. */
export class TemplatePlans {
  /** per profile, per environment, per package id */
  private readonly byId = new WeakMap<ReserveProfile, WeakMap<object, Map<string, TemplatePlan[]>>>();
  /** per profile, per environment: by the blob's `package_name` + `template_id` bytes */
  private readonly byBytes = new WeakMap<
    ReserveProfile,
    WeakMap<object, { size: number; memo: BytesMemo<TemplatePlan> }>
  >();

  /** The plan of template `t` of package `packageName`. */
  planOf(
    t: TemplateId,
    packageName: string,
    types: TypeEnv | undefined,
    profile: ReserveProfile,
  ): TemplatePlan {
    const byEnv = byEnvironmentOf(this.byId, profile);
    const envKey = types ?? NO_TYPES;
    let byPackage = byEnv.get(envKey);
    if (byPackage === undefined) {
      byPackage = new Map();
      byEnv.set(envKey, byPackage);
    }
    // resolveTemplateCached is itself remembered per environment and changes when packages are
    // added: a plan made from an older answer is made again
    const lookup = types === undefined ? null : resolveTemplateCached(types, t, packageName);
    let list = byPackage.get(t.packageId);
    if (list === undefined) {
      if (byPackage.size >= MAX_PACKAGES) byPackage.clear();
      list = [];
      byPackage.set(t.packageId, list);
    }
    for (let i = 0; i < list.length; i++) {
      const p = list[i] as TemplatePlan;
      if (p.packageName === packageName && sameNames(p.entity, t.entity) && sameNames(p.module, t.module)) {
        if (p.lookup === lookup) return p;
        const fresh = makePlan(t, packageName, lookup, profile);
        list[i] = fresh;
        return fresh;
      }
    }
    const p = makePlan(t, packageName, lookup, profile);
    if (list.length < MAX_PLANS_PER_PACKAGE) list.push(p);
    return p;
  }

  /**
   * The plan of the template whose `package_name` and `template_id` bytes `spans` locate in `buf`
   * (compared byte for byte, no string); `lookup` is the environment's current answer for it.
   */
  planOfBytes(
    buf: Uint8Array,
    view: DataView,
    spans: BlobSpans,
    types: TypeEnv | undefined,
    profile: ReserveProfile,
    lookup: TemplateLookup | null,
  ): TemplatePlan {
    const byEnv = byEnvironmentOf(this.byBytes, profile);
    const envKey = types ?? NO_TYPES;
    const size = types === undefined ? 0 : types.packages.size;
    let e = byEnv.get(envKey);
    // dropped when packages were added to the environment
    if (e === undefined || e.size !== size) {
      e = { size, memo: new BytesMemo(64, 2048) };
      byEnv.set(envKey, e);
    }
    const hit = e.memo.get(buf, view, spans.nameAt, spans.idStop);
    // a plan made from an older answer of the environment is made again
    if (hit !== undefined && hit.lookup === lookup) return hit;
    const plan = this.planOf(
      decodeIdentifierOfBytes(buf, spans.idAt, spans.idStop),
      latin1.decode(buf.subarray(spans.nameAt, spans.nameStop)),
      types,
      profile,
    );
    e.memo.set(buf, spans.nameAt, spans.idStop, plan);
    return plan;
  }
}
