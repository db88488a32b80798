/**
 * Test helper: the subset of a type environment reachable from some templates, grouped per
 * package (used to compare the fixture type files with the types of the real DAR).
 */
import type { DamlType, DataTypeDef, PackageTypes, TypeConRef } from '../../src/core/types/daml-type.js';
import { formatQualifiedName } from '../../src/core/types/daml-type.js';
import type { TypeEnv } from '../../src/core/types/type-env.js';

export function reachableTypes(env: TypeEnv, templates: readonly TypeConRef[]): PackageTypes[] {
  const picked = new Map<string, Map<string, DataTypeDef>>();
  const queue: TypeConRef[] = [...templates];
  const visitType = (t: DamlType): void => {
    switch (t.kind) {
      case 'optional':
      case 'list':
        visitType(t.type);
        return;
      case 'textMap':
        visitType(t.value);
        return;
      case 'genMap':
        visitType(t.key);
        visitType(t.value);
        return;
      case 'con':
        queue.push(t.ref);
        for (const a of t.args) visitType(a);
        return;
      default:
        return;
    }
  };
  while (queue.length > 0) {
    const ref = queue.pop() as TypeConRef;
    const qn = formatQualifiedName(ref);
    const m = picked.get(ref.packageId) ?? new Map<string, DataTypeDef>();
    picked.set(ref.packageId, m);
    if (m.has(qn)) continue;
    const d = env.packages.get(ref.packageId)?.dataTypes.get(qn);
    if (d === undefined) throw new Error(`missing ${ref.packageId}:${qn}`);
    m.set(qn, d);
    if (d.kind === 'enum') continue;
    for (const f of d.kind === 'record' ? d.fields : d.constructors) visitType(f.type);
  }
  const templateSet = new Map<string, Set<string>>();
  for (const t of templates) {
    const s = templateSet.get(t.packageId) ?? new Set<string>();
    s.add(formatQualifiedName(t));
    templateSet.set(t.packageId, s);
  }
  return [...picked.entries()].map(([id, dataTypes]) => {
    const p = env.packages.get(id) as PackageTypes;
    return {
      packageId: id,
      name: p.name,
      version: p.version,
      dataTypes,
      templates: templateSet.get(id) ?? new Set(),
    };
  });
}
