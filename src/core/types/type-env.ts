/**
 * The Daml type environment: the packages (from DARs or type files) that V12 TypedNormalForm
 * hashing types blob values against (docs/protocol/contract-id.md §6.4 "Upgrades",
 * docs/protocol/dar-format.md §6.3).
 *
 * Lookup rules:
 * - a data type is found by its exact defining package id and qualified name;
 * - a template is resolved with the package whose id is in the blob's `template_id` when it is
 *   loaded; otherwise with the loaded package of the SAME package name that has the highest version
 *   (an upgrade substitution — the result says so). When the version of the blob's package is known
 *   (`knownVersions`), only versions ≥ it are eligible (typing with an older package is unsafe:
 *   a newer version can add fields and constructors).
 */
import type { DataTypeDef, PackageTypes, QualifiedName, TypeConRef } from './daml-type.js';
import { formatQualifiedName } from './daml-type.js';

/** The environment. Mutable only through `addPackage`. */
export interface TypeEnv {
  /** packages by package id */
  readonly packages: ReadonlyMap<string, PackageTypes>;
  /** packages by package name, in insertion order */
  readonly byName: ReadonlyMap<string, readonly PackageTypes[]>;
  /** versions of package ids that are known but not loaded (e.g. from a dars.lock), id → version */
  readonly knownVersions: ReadonlyMap<string, string>;
}

/** What an environment remembers of its own lookups (emptied when a package or a known version is added). */
interface TypeEnvMemo {
  /** resolved references, keyed by the reference object (types are shared) */
  refs: WeakMap<TypeConRef, DataTypeDef>;
  /** resolveTemplate results: package id → lookups of that package's templates */
  templates: Map<string, TemplateMemoEntry[]>;
}

interface TemplateMemoEntry {
  readonly module: readonly string[];
  readonly entity: readonly string[];
  readonly packageName: string;
  readonly r: TemplateLookup;
}

interface MutableTypeEnv {
  readonly packages: Map<string, PackageTypes>;
  readonly byName: Map<string, PackageTypes[]>;
  readonly knownVersions: Map<string, string>;
  /** the environment's own memo (an environment made elsewhere gets one on first use) */
  memo?: TypeEnvMemo;
}

/** The memo held by `env` itself (no module state: it lives and dies with the environment). */
function memoOf(env: TypeEnv): TypeEnvMemo {
  const m = env as MutableTypeEnv;
  let memo = m.memo;
  if (memo === undefined) {
    memo = { refs: new WeakMap(), templates: new Map() };
    m.memo = memo;
  }
  return memo;
}

/**
 * Forgets what `env` remembered: its template answers can change when packages or known versions
 * are added, its reference answers only when packages are.
 */
function forget(env: TypeEnv, refsToo: boolean): void {
  const memo = memoOf(env);
  if (refsToo) memo.refs = new WeakMap();
  memo.templates = new Map();
}

/** Creates an environment holding `packages` (later packages with an already-present id are ignored). */
export function createTypeEnv(packages: Iterable<PackageTypes> = []): TypeEnv {
  const env: MutableTypeEnv = {
    packages: new Map(),
    byName: new Map(),
    knownVersions: new Map(),
    memo: { refs: new WeakMap(), templates: new Map() },
  };
  for (const p of packages) addPackage(env, p);
  return env;
}

/**
 * Adds one package; returns `true` when it was added, `false` when a package with that id is
 * already present (package ids are content hashes, so the first copy is kept).
 */
export function addPackage(env: TypeEnv, pkg: PackageTypes): boolean {
  const m = env as MutableTypeEnv;
  if (m.packages.has(pkg.packageId)) return false;
  forget(env, true);
  m.packages.set(pkg.packageId, pkg);
  const list = m.byName.get(pkg.name);
  if (list === undefined) m.byName.set(pkg.name, [pkg]);
  else list.push(pkg);
  m.knownVersions.set(pkg.packageId, pkg.version);
  return true;
}

/** Records the version of a package id that is not (or not yet) loaded, for the upgrade rule. */
export function addKnownPackageVersion(env: TypeEnv, packageId: string, version: string): void {
  forget(env, false);
  (env as MutableTypeEnv).knownVersions.set(packageId, version);
}

/**
 * The data type a type reference points to, as typing resolves it: the exact package id; when
 * that package is not loaded, the same qualified name in `home` (the template's package), else in
 * the one loaded package that defines it (undefined when none or ambiguous). Exact hits are cached.
 */
export function resolveDataTypeRef(
  env: TypeEnv,
  ref: TypeConRef,
  home?: PackageTypes,
): DataTypeDef | undefined {
  const cache = memoOf(env).refs;
  const hit = cache.get(ref);
  if (hit !== undefined) return hit;
  const qn = formatQualifiedName(ref);
  const exact = env.packages.get(ref.packageId);
  if (exact !== undefined) {
    const d = exact.dataTypes.get(qn);
    if (d !== undefined) cache.set(ref, d);
    return d;
  }
  const inHome = home?.dataTypes.get(qn);
  if (inHome !== undefined) return inHome;
  let found: DataTypeDef | undefined;
  for (const p of env.packages.values()) {
    const d = p.dataTypes.get(qn);
    if (d !== undefined) {
      if (found !== undefined) return undefined; // ambiguous without the package id
      found = d;
    }
  }
  return found;
}

export interface TemplateResolution {
  /** the package used for typing */
  readonly package: PackageTypes;
  /** the template's record data type in that package */
  readonly dataType: Extract<DataTypeDef, { kind: 'record' }>;
  /** the package id the blob asked for */
  readonly requestedPackageId: string;
  /** true when `package` is not the requested package but another version of the same name */
  readonly upgraded: boolean;
  /** human-readable note for reports, e.g. "typed with a newer package version …" */
  readonly note: string | null;
}

export type TemplateLookup =
  | ({ readonly ok: true } & TemplateResolution)
  | { readonly ok: false; readonly reason: string };

/**
 * Finds the package and record type for a blob's template: exact package id first, else the
 * highest loaded version of `packageName` that defines the template (≥ the requested version when
 * that is known). Never throws.
 */
export function resolveTemplate(env: TypeEnv, templateId: TypeConRef, packageName: string): TemplateLookup {
  const qn = formatQualifiedName(templateId);
  const exact = env.packages.get(templateId.packageId);
  if (exact !== undefined) {
    const dt = exact.dataTypes.get(qn);
    if (dt?.kind === 'record') {
      return {
        ok: true,
        package: exact,
        dataType: dt,
        requestedPackageId: templateId.packageId,
        upgraded: false,
        note: null,
      };
    }
    return {
      ok: false,
      reason: `package ${exact.name} ${exact.version} (${templateId.packageId}) has no record type ${qn}`,
    };
  }
  const requestedVersion = env.knownVersions.get(templateId.packageId);
  let best: PackageTypes | undefined;
  let bestType: Extract<DataTypeDef, { kind: 'record' }> | undefined;
  for (const p of env.byName.get(packageName) ?? []) {
    const dt = p.dataTypes.get(qn);
    if (dt?.kind !== 'record') continue;
    if (requestedVersion !== undefined && comparePackageVersions(p.version, requestedVersion) < 0) {
      continue;
    }
    if (best === undefined || comparePackageVersions(p.version, best.version) > 0) {
      best = p;
      bestType = dt;
    }
  }
  if (best === undefined || bestType === undefined) {
    const have = (env.byName.get(packageName) ?? []).map((p) => p.version).join(', ');
    return {
      ok: false,
      reason:
        `no types for template ${templateId.packageId}:${qn} (package name ${JSON.stringify(packageName)}` +
        (have === '' ? ', no version of it loaded)' : `, loaded versions without it or too old: ${have})`),
    };
  }
  return {
    ok: true,
    package: best,
    dataType: bestType,
    requestedPackageId: templateId.packageId,
    upgraded: true,
    note:
      requestedVersion === undefined
        ? `typed with another version of the package: ${best.name} ${best.version} (${best.packageId}), ` +
          `the highest loaded; the blob's package ${templateId.packageId} is not loaded and its version is ` +
          'unknown, so it may be newer (a wrong typing shows as a mismatch, never as a false pass)'
        : `typed with a newer package version: ${best.name} ${best.version} (${best.packageId}) ` +
          `instead of version ${requestedVersion} ${templateId.packageId}`,
  };
}

/**
 * Compares Daml package versions (dot-separated non-negative integers, e.g. `0.1.17`)
 * numerically segment by segment; a missing segment counts as 0. Non-numeric segments compare as
 * strings after all numeric ones. Returns <0, 0, >0.
 */
export function comparePackageVersions(a: string, b: string): number {
  const as = a.split('.');
  const bs = b.split('.');
  const n = Math.max(as.length, bs.length);
  for (let i = 0; i < n; i++) {
    const x = as[i] ?? '0';
    const y = bs[i] ?? '0';
    const xn = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const yn = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    if (!Number.isNaN(xn) && !Number.isNaN(yn)) {
      if (xn !== yn) return xn < yn ? -1 : 1;
    } else if (x !== y) {
      if (Number.isNaN(xn) !== Number.isNaN(yn)) return Number.isNaN(xn) ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

/** Parses `Mod.Sub:Entity.Sub` into a QualifiedName; undefined when it is not of that shape. */
export function parseQualifiedName(s: string): QualifiedName | undefined {
  const i = s.indexOf(':');
  if (i <= 0 || i === s.length - 1 || s.indexOf(':', i + 1) !== -1) return undefined;
  const module = s.slice(0, i).split('.');
  const entity = s.slice(i + 1).split('.');
  if (module.some((x) => x === '') || entity.some((x) => x === '')) return undefined;
  return { module, entity };
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `resolveTemplate`, remembered per environment (cleared when a package or a known version is
 * added): a replay resolves the same few templates for every contract, with no string building.
 */
export function resolveTemplateCached(
  env: TypeEnv,
  templateId: TypeConRef,
  packageName: string,
): TemplateLookup {
  const byPackage = memoOf(env).templates;
  let list = byPackage.get(templateId.packageId);
  if (list === undefined) {
    list = [];
    byPackage.set(templateId.packageId, list);
  }
  for (const e of list)
    if (
      e.packageName === packageName &&
      sameNames(e.entity, templateId.entity) &&
      sameNames(e.module, templateId.module)
    )
      return e.r;
  const r = resolveTemplate(env, templateId, packageName);
  if (list.length < 64)
    list.push({ module: [...templateId.module], entity: [...templateId.entity], packageName, r });
  return r;
}
