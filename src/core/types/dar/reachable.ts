/**
 * The closure of data types reachable from one template (docs/protocol/dar-format.md §6.1, §6.2): what
 * `inspect-dar --template` shows and what `types --dar` writes as a type file. Walks field and
 * constructor types through `con` references across packages (by package id); each data type is
 * visited once, so recursive types terminate.
 */
import { DarError } from '../../../errors/dar.js';
import {
  type DamlType,
  type DataTypeDef,
  formatQualifiedName,
  type PackageTypes,
  type QualifiedName,
} from '../daml-type.js';

export interface ReachableDataType {
  readonly packageId: string;
  readonly def: DataTypeDef;
}

export interface ReachableTypes {
  /** the package that defines the template */
  readonly templatePackage: PackageTypes;
  /** data types in visiting order (the template's record first) */
  readonly dataTypes: readonly ReachableDataType[];
  /** per package, a PackageTypes holding only the reachable data types (template package first) */
  readonly packages: readonly PackageTypes[];
}

/**
 * Collects the data types reachable from template `name` of `packageId` (or of the main package
 * when `packageId` is null: first the packages listed, in order). Throws DarError when the
 * template or a referenced type is missing.
 */
export function computeReachableTypes(
  packages: ReadonlyMap<string, PackageTypes>,
  name: QualifiedName,
  packageId: string | null,
): ReachableTypes {
  const qn = formatQualifiedName(name);
  let home: PackageTypes | undefined;
  if (packageId !== null) home = packages.get(packageId);
  else for (const p of packages.values()) if (p.templates.has(qn) && home === undefined) home = p;
  if (home === undefined || !home.templates.has(qn)) {
    throw new DarError(
      'DAR_TEMPLATE_NOT_FOUND',
      `template expected in ${packageId === null ? 'the loaded packages' : `package ${packageId}`}, got no ${qn}`,
    );
  }
  const root = home.dataTypes.get(qn);
  if (root === undefined || root.kind !== 'record') {
    throw new DarError('DAR_TEMPLATE_NOT_FOUND', `template ${qn} expected a serializable record type`);
  }
  const seen = new Set<string>();
  const out: ReachableDataType[] = [];
  const queue: { packageId: string; def: DataTypeDef }[] = [{ packageId: home.packageId, def: root }];
  seen.add(`${home.packageId}:${qn}`);
  while (queue.length > 0) {
    const item = queue.shift()!;
    out.push(item);
    const types: DamlType[] =
      item.def.kind === 'record'
        ? item.def.fields.map((f) => f.type)
        : item.def.kind === 'variant'
          ? item.def.constructors.map((c) => c.type)
          : [];
    const stack = [...types].reverse(); // pop() then visits fields in declaration order
    while (stack.length > 0) {
      const t = stack.pop()!;
      switch (t.kind) {
        case 'optional':
        case 'list':
          stack.push(t.type);
          break;
        case 'textMap':
          stack.push(t.value);
          break;
        case 'genMap':
          stack.push(t.value, t.key);
          break;
        case 'con': {
          stack.push(...[...t.args].reverse());
          const key = `${t.ref.packageId}:${formatQualifiedName(t.ref)}`;
          if (seen.has(key)) break;
          seen.add(key);
          const def = packages.get(t.ref.packageId)?.dataTypes.get(formatQualifiedName(t.ref));
          if (def === undefined) {
            throw new DarError(
              'DAR_TYPE_NOT_FOUND',
              `data type ${formatQualifiedName(t.ref)} of package ${t.ref.packageId} expected in the loaded packages, got none (reached from ${qn})`,
            );
          }
          queue.push({ packageId: t.ref.packageId, def });
          break;
        }
        default:
          break;
      }
    }
  }
  const byPkg = new Map<string, Map<string, DataTypeDef>>();
  for (const { packageId: id, def } of out) {
    const m = byPkg.get(id) ?? new Map<string, DataTypeDef>();
    byPkg.set(id, m);
    m.set(formatQualifiedName(def.name), def);
  }
  const subset: PackageTypes[] = [...byPkg].map(([id, dataTypes]) => {
    const p = packages.get(id)!;
    return {
      packageId: id,
      name: p.name,
      version: p.version,
      dataTypes,
      templates: id === home.packageId ? new Set([qn]) : new Set<string>(),
    };
  });
  return { templatePackage: home, dataTypes: out, packages: subset };
}
