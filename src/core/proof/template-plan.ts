/**
 * What a template contributes to every reserve proof of its contracts, worked out once and
 * remembered (the proof step's fast paths, ./reserve-proof-fast.ts and ./reserve-proof-one-pass.ts):
 * its type resolution (V12, DAR types), its identity, its reserve-profile entry and the index of
 * every profile field in the create argument's record. Plans are kept per profile, per type
 * environment and per package id, bounded for hostile inputs with many templates.
 */
import type { TemplateIdentity } from '../audit/snapshot.js';
import type { TemplateId } from '../codec/contract.js';
import { resolveTemplateCached, type TemplateLookup, type TypeEnv } from '../types/type-env.js';
import {
  type FieldLocator,
  type FieldRole,
  findTemplateProfile,
  locateFieldIndex,
  PROVEN_FIELD_KEYS,
  type ProvenFields,
  type ReserveProfile,
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

export function planOf(
  t: TemplateId,
  packageName: string,
  types: TypeEnv | undefined,
  profile: ReserveProfile,
): TemplatePlan {
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
