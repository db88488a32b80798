/**
 * Reserve profiles: which fields of a reserve contract's create argument hold the pool's reserves,
 * LP supply, tokens, pool id and fee rate (the issue "Reserve profile"; api-decisions §3 for the
 * built-in default, the bundled server's `amm-pools:Amm.Pool:PoolReserve`).
 *
 * Format (JSON, documented in the README, "Reserve profile"; example fixtures/profiles/amm-pools.json):
 * ```
 * { "format": "reserve-audit/profile@1",
 *   "templates": [ { "package_name", "module_name", "entity_name", "package_ids"?: [hex…],
 *     "fields": { "<role>": { "label"?: "reserveA", "position"?: 4, "type": "Numeric" }, … } } ] }
 * ```
 * Roles: reserve_a, reserve_b, total_lp_supply (required, type Numeric); pool_id (Text);
 * token_a, token_b (InstrumentId = record {admin: Party, id: Text}); fee_rate (Numeric).
 * A field is located by `position` (0-based index in the blob's positional record) or by `label`
 * (which needs the template's record type from --types/--dar). When both are given and the labels
 * are known, they must agree, else the proof is unverifiable (could-not-check).
 */
import { AuditError } from '../../errors/audit.js';
import type { TemplateIdentity, TokenKey } from '../audit/snapshot.js';
import type { Value } from '../codec/value.js';

export type FieldRole =
  | 'pool_id'
  | 'token_a'
  | 'token_b'
  | 'reserve_a'
  | 'reserve_b'
  | 'total_lp_supply'
  | 'fee_rate';
export type FieldType = 'Numeric' | 'Text' | 'InstrumentId';

const ROLE_TYPES: Readonly<Record<FieldRole, FieldType>> = {
  pool_id: 'Text',
  token_a: 'InstrumentId',
  token_b: 'InstrumentId',
  reserve_a: 'Numeric',
  reserve_b: 'Numeric',
  total_lp_supply: 'Numeric',
  fee_rate: 'Numeric',
};
const REQUIRED_ROLES: readonly FieldRole[] = ['reserve_a', 'reserve_b', 'total_lp_supply'];

export interface FieldLocator {
  readonly label: string | null;
  readonly position: number | null;
  readonly type: FieldType;
}

export interface TemplateProfile {
  readonly packageName: string;
  readonly moduleName: string;
  readonly entityName: string;
  /** when non-null, only these package ids are accepted */
  readonly packageIds: readonly string[] | null;
  readonly fields: Readonly<Partial<Record<FieldRole, FieldLocator>>>;
}

export interface ReserveProfile {
  readonly name: string;
  readonly templates: readonly TemplateProfile[];
}

const loc = (label: string, position: number, type: FieldType): FieldLocator => ({ label, position, type });

/** The bundled server's reserve template (api-decisions §3), the default when no --profile is given. */
export const DEFAULT_RESERVE_PROFILE: ReserveProfile = {
  name: 'amm-pools (built-in)',
  templates: [
    {
      packageName: 'amm-pools',
      moduleName: 'Amm.Pool',
      entityName: 'PoolReserve',
      packageIds: null,
      fields: {
        pool_id: loc('poolId', 1, 'Text'),
        token_a: loc('tokenA', 2, 'InstrumentId'),
        token_b: loc('tokenB', 3, 'InstrumentId'),
        reserve_a: loc('reserveA', 4, 'Numeric'),
        reserve_b: loc('reserveB', 5, 'Numeric'),
        total_lp_supply: loc('totalLpSupply', 6, 'Numeric'),
        fee_rate: loc('feeRate', 7, 'Numeric'),
      },
    },
  ],
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(path: string, rule: string, got: unknown): never {
  throw new AuditError(
    'PROFILE_INVALID',
    `"${path}" expected ${rule}, got ${JSON.stringify(got) ?? 'undefined'}`,
  );
}

function readString(o: Record<string, unknown>, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0) fail(`${path}.${key}`, 'a non-empty string', v);
  return v;
}

function parseLocator(v: unknown, role: FieldRole, path: string): FieldLocator {
  if (!isObj(v)) fail(path, 'an object {label?, position?, type}', v);
  const label = v.label === undefined ? null : v.label;
  const position = v.position === undefined ? null : v.position;
  if (label !== null && (typeof label !== 'string' || label.length === 0))
    fail(`${path}.label`, 'a non-empty string', label);
  if (
    position !== null &&
    (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > 1000)
  )
    fail(`${path}.position`, 'an integer 0..1000', position);
  if (label === null && position === null) fail(path, 'a label or a position', v);
  const type = v.type ?? ROLE_TYPES[role];
  if (type !== ROLE_TYPES[role]) fail(`${path}.type`, `"${ROLE_TYPES[role]}" for role ${role}`, type);
  return { label: label as string | null, position: position as number | null, type: ROLE_TYPES[role] };
}

/** Parses a reserve profile document (already JSON-parsed); throws AuditError PROFILE_INVALID. */
export function parseReserveProfile(json: unknown, name = 'profile'): ReserveProfile {
  if (!isObj(json)) fail('', 'a JSON object', json);
  if (json.format !== 'reserve-audit/profile@1') fail('format', '"reserve-audit/profile@1"', json.format);
  const list = json.templates;
  if (!Array.isArray(list) || list.length === 0) fail('templates', 'a non-empty array', list);
  const templates = list.map((t: unknown, i: number): TemplateProfile => {
    const path = `templates[${i}]`;
    if (!isObj(t)) fail(path, 'an object', t);
    let packageIds: string[] | null = null;
    if (t.package_ids !== undefined && t.package_ids !== null) {
      if (
        !Array.isArray(t.package_ids) ||
        t.package_ids.some((p) => typeof p !== 'string' || !/^[0-9a-f]{64}$/.test(p))
      )
        fail(`${path}.package_ids`, 'an array of 64-hex package ids', t.package_ids);
      packageIds = t.package_ids as string[];
    }
    if (!isObj(t.fields)) fail(`${path}.fields`, 'an object', t.fields);
    const fields: Partial<Record<FieldRole, FieldLocator>> = {};
    for (const [role, v] of Object.entries(t.fields)) {
      if (!(role in ROLE_TYPES))
        fail(`${path}.fields.${role}`, `one of ${Object.keys(ROLE_TYPES).join(', ')}`, role);
      fields[role as FieldRole] = parseLocator(v, role as FieldRole, `${path}.fields.${role}`);
    }
    for (const r of REQUIRED_ROLES)
      if (fields[r] === undefined) fail(`${path}.fields.${r}`, 'a field locator', undefined);
    return {
      packageName: readString(t, 'package_name', path),
      moduleName: readString(t, 'module_name', path),
      entityName: readString(t, 'entity_name', path),
      packageIds,
      fields,
    };
  });
  const n = typeof json.name === 'string' && json.name.length > 0 ? json.name : name;
  return { name: n, templates };
}

/** The profile entry for a template identity, or null when the profile does not list it. */
export function findTemplateProfile(profile: ReserveProfile, t: TemplateIdentity): TemplateProfile | null {
  for (const p of profile.templates) {
    if (p.packageName !== t.packageName || p.moduleName !== t.moduleName || p.entityName !== t.entityName)
      continue;
    if (p.packageIds !== null && !p.packageIds.includes(t.packageId)) continue;
    return p;
  }
  return null;
}

/** What a verified reserve contract says, read through a profile. */
export interface ProvenFields {
  readonly poolId: string | null;
  readonly tokenA: TokenKey | null;
  readonly tokenB: TokenKey | null;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly feeRate: string | null;
}

export type ExtractResult =
  | { readonly ok: true; readonly value: ProvenFields }
  | { readonly ok: false; readonly reason: string };

/**
 * The index of a role's field in the create argument's record (label first, when the labels are
 * known), or the reason it cannot be located — independent of the blob, so it can be computed
 * once per template (./template-plan.ts).
 */
export function locateFieldIndex(
  role: FieldRole,
  l: FieldLocator,
  labels: readonly string[] | null,
): number | string {
  let index = l.position;
  if (l.label !== null && labels !== null) {
    const byLabel = labels.indexOf(l.label);
    if (byLabel < 0) return `field "${l.label}" (${role}) is not in the template's record type`;
    if (index !== null && index !== byLabel)
      return `field "${l.label}" (${role}) is at position ${byLabel} in the record type, the profile says ${index}`;
    index = byLabel;
  }
  if (index === null)
    return `field "${l.label}" (${role}) has no position and no type information (pass --types or --dar)`;
  return index;
}

function locate(
  fields: readonly Value[],
  role: FieldRole,
  l: FieldLocator,
  labels: readonly string[] | null,
): Value | string {
  const index = locateFieldIndex(role, l, labels);
  if (typeof index === 'string') return index;
  const v = fields[index];
  if (v === undefined)
    return `${role} at position ${index} is beyond the ${fields.length} fields of the create argument`;
  return v;
}

/** The ProvenFields property each role fills. */
export const PROVEN_FIELD_KEYS: Readonly<Record<FieldRole, keyof ProvenFields>> = {
  pool_id: 'poolId',
  token_a: 'tokenA',
  token_b: 'tokenB',
  reserve_a: 'reserveA',
  reserve_b: 'reserveB',
  total_lp_supply: 'totalLpSupply',
  fee_rate: 'feeRate',
};

/** An InstrumentId record {admin: Party, id: Text} as a token key, or null. */
export function readInstrument(v: Value): TokenKey | null {
  if (v.kind !== 'record' || v.fields.length !== 2) return null;
  const [admin, id] = v.fields;
  if (admin?.kind !== 'party' || id?.kind !== 'text') return null;
  return { admin: admin.value, id: id.value };
}

/**
 * Reads the profile's fields out of a decoded create argument. `labels` are the record's field
 * names from the type environment (null when no types are loaded: positions are used).
 */
export function extractProvenFields(
  tp: TemplateProfile,
  createArg: Value,
  labels: readonly string[] | null,
): ExtractResult {
  if (createArg.kind !== 'record') return { ok: false, reason: 'the create argument is not a record' };
  const out: Record<string, unknown> = { poolId: null, tokenA: null, tokenB: null, feeRate: null };
  for (const [role, l] of Object.entries(tp.fields) as [FieldRole, FieldLocator][]) {
    const v = locate(createArg.fields, role, l, labels);
    if (typeof v === 'string') return { ok: false, reason: v };
    if (l.type === 'Numeric') {
      if (v.kind !== 'numeric') return { ok: false, reason: `${role} is a ${v.kind}, expected a Numeric` };
      out[PROVEN_FIELD_KEYS[role]] = v.value;
    } else if (l.type === 'Text') {
      if (v.kind !== 'text') return { ok: false, reason: `${role} is a ${v.kind}, expected Text` };
      out[PROVEN_FIELD_KEYS[role]] = v.value;
    } else {
      const t = readInstrument(v);
      if (t === null)
        return { ok: false, reason: `${role} is not an InstrumentId record {admin: Party, id: Text}` };
      out[PROVEN_FIELD_KEYS[role]] = t;
    }
  }
  return { ok: true, value: out as unknown as ProvenFields };
}
