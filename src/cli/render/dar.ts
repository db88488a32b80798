/**
 * Output of `inspect-dar` (docs/protocol/dar-format.md §2, §3, §6): the package listing with recomputed
 * ids, and the data types a template reaches, as text (Daml-like type syntax) or JSON.
 */
import { basename } from 'node:path';
import {
  type DamlType,
  type DataTypeDef,
  formatQualifiedName,
  type PackageTypes,
} from '../../core/types/daml-type.js';
import type { LoadedDar, ReachableTypes } from '../../core/types/dar/index.js';
import { formatTypeFile } from '../../core/types/type-file.js';
import { formatDisplayText } from '../../core/wire/display-text.js';

/** `Optional (Numeric 10)`, `List Splice.Types:Round`, `Splice.AmuletConfig:TransferConfig Splice.AmuletConfig:USD` */
function formatDamlTypeText(t: DamlType, nested = false): string {
  const wrap = (s: string): string => (nested ? `(${s})` : s);
  switch (t.kind) {
    case 'unit':
      return 'Unit';
    case 'bool':
      return 'Bool';
    case 'int64':
      return 'Int64';
    case 'text':
      return 'Text';
    case 'party':
      return 'Party';
    case 'date':
      return 'Date';
    case 'timestamp':
      return 'Timestamp';
    case 'contractId':
      return 'ContractId';
    case 'numeric':
      return wrap(`Numeric ${t.scale}`);
    case 'optional':
      return wrap(`Optional ${formatDamlTypeText(t.type, true)}`);
    case 'list':
      return wrap(`List ${formatDamlTypeText(t.type, true)}`);
    case 'textMap':
      return wrap(`TextMap ${formatDamlTypeText(t.value, true)}`);
    case 'genMap':
      return wrap(`GenMap ${formatDamlTypeText(t.key, true)} ${formatDamlTypeText(t.value, true)}`);
    case 'var':
      return t.name;
    case 'con': {
      const n = formatQualifiedName(t.ref);
      return t.args.length === 0
        ? n
        : wrap(`${n} ${t.args.map((a) => formatDamlTypeText(a, true)).join(' ')}`);
    }
  }
}

function formatDefinition(def: DataTypeDef, pkg: PackageTypes | undefined): string[] {
  const head = `${def.kind} ${formatQualifiedName(def.name)}${def.params.map((p) => ` ${p}`).join('')}`;
  const lines = [`${head}    -- ${pkg === undefined ? '?' : `${pkg.name} ${pkg.version}`}`];
  if (def.kind === 'enum') {
    for (const [i, c] of def.constructors.entries()) lines.push(`  ${i}: ${c}`);
  } else if (def.kind === 'variant') {
    for (const [i, c] of def.constructors.entries()) {
      lines.push(`  ${i}: ${c.name} ${formatDamlTypeText(c.type, true)}`);
    }
  } else for (const f of def.fields) lines.push(`  ${f.name}: ${formatDamlTypeText(f.type)}`);
  return lines;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function formatDarText(file: string, dar: LoadedDar, reach: ReachableTypes | null): string {
  const out: string[] = [];
  const main = dar.packages.find((p) => p.main);
  const m = dar.manifest;
  out.push(
    `${basename(file)}: ${dar.packages.length} package${dar.packages.length === 1 ? '' : 's'}` +
      (main === undefined ? '' : `, main ${main.name} ${main.version}`) +
      (m?.sdkVersion ? `, Sdk-Version ${m.sdkVersion}` : ''),
  );
  out.push(
    'package ids are recomputed as SHA-256 of each ArchivePayload; "declared ok" = equal to Archive.hash',
  );
  for (const p of dar.packages) {
    out.push(
      `${p.main ? 'main' : 'dep '}  ${p.packageId}  ${p.idVerified ? 'declared ok' : 'undeclared '}  LF ${p.lfVersion}  ${p.name} ${p.version}` +
        `  (${plural(p.types.dataTypes.size, 'data type')}, ${plural(p.types.templates.size, 'template')})`,
    );
  }
  if (dar.unresolved.length > 0) out.push(`referenced but not in this file: ${dar.unresolved.join(', ')}`);
  if (reach !== null) {
    const byId = new Map(dar.packages.map((p) => [p.packageId, p.types]));
    const root = reach.dataTypes[0]!;
    out.push('');
    out.push(
      `template ${formatQualifiedName(root.def.name)} of ${reach.templatePackage.name} ${reach.templatePackage.version} (${reach.templatePackage.packageId}): ${plural(reach.dataTypes.length, 'data type')} reachable`,
    );
    for (const d of reach.dataTypes) out.push(...formatDefinition(d.def, byId.get(d.packageId)));
  }
  // manifest, package names and versions come from the DAR: their control characters are escaped
  return formatDisplayText(`${out.join('\n')}\n`, true);
}

export function formatDarJson(file: string, dar: LoadedDar, reach: ReachableTypes | null): string {
  const doc: Record<string, unknown> = {
    file,
    manifest:
      dar.manifest === null
        ? null
        : { mainDalf: dar.manifest.mainDalf, name: dar.manifest.name, sdkVersion: dar.manifest.sdkVersion },
    packages: dar.packages.map((p) => ({
      packageId: p.packageId,
      idVerified: p.idVerified,
      name: p.name,
      version: p.version,
      lfVersion: p.lfVersion,
      main: p.main,
      path: p.path,
      dataTypes: p.types.dataTypes.size,
      templates: [...p.types.templates].sort(),
      dependencies: p.types.dependencies,
    })),
    unresolved: dar.unresolved,
  };
  if (reach !== null) {
    doc.template = {
      name: formatQualifiedName(reach.dataTypes[0]!.def.name),
      packageId: reach.templatePackage.packageId,
      types: JSON.parse(formatTypeFile(reach.packages)),
    };
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}
