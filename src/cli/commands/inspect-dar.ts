/**
 * `reserve-audit inspect-dar <file> [--json] [--template <Module:Entity>]` (spec/dar-format.md §2, §3, §6):
 * lists the packages of a DAR (or bare DALF) — package id (always recomputed as SHA-256 of the
 * payload, and whether it matches the declared hash), name, version, LF version — and with
 * `--template` every data type reachable from that template's argument.
 */
import { basename } from 'node:path';
import type { Argv } from 'yargs';
import {
  type DamlType,
  type DataTypeDef,
  formatQualifiedName,
  type PackageTypes,
} from '../../core/types/daml-type.js';
import { computeReachableTypes, type LoadedDar, type ReachableTypes } from '../../core/types/dar/index.js';
import { parseQualifiedName } from '../../core/types/type-env.js';
import { formatTypeFile } from '../../core/types/type-file.js';
import { formatGot } from '../../errors/base.js';
import { DarError } from '../../errors/dar.js';
import { loadDarFile } from '../../io/files/dar-file.js';
import type { CliCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';

/** Parses `Module:Entity` or `<packageId>:Module:Entity` from the command line. */
export function parseTemplateArgument(s: string): {
  packageId: string | null;
  module: string[];
  entity: string[];
} {
  const m = /^([0-9a-f]{64}):(.*)$/.exec(s);
  const q = parseQualifiedName(m === null ? s : m[2]!);
  if (q === undefined) {
    throw new DarError(
      'DAR_TEMPLATE_NOT_FOUND',
      `"--template" expected Module.Sub:Entity, got ${formatGot(s)}`,
    );
  }
  return { packageId: m === null ? null : m[1]!, module: [...q.module], entity: [...q.entity] };
}

/** Finds the reachable types of a template in a loaded DAR (main package first). */
export function computeDarTemplateTypes(dar: LoadedDar, template: string): ReachableTypes {
  const t = parseTemplateArgument(template);
  const byId = new Map<string, PackageTypes>(dar.packages.map((p) => [p.packageId, p.types]));
  return computeReachableTypes(byId, t, t.packageId);
}

/** `Optional (Numeric 10)`, `List Splice.Types:Round`, `Splice.AmuletConfig:TransferConfig Splice.AmuletConfig:USD` */
export function formatDamlTypeText(t: DamlType, nested = false): string {
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

function renderText(file: string, dar: LoadedDar, reach: ReachableTypes | null): string {
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
  return `${out.join('\n')}\n`;
}

function renderJson(file: string, dar: LoadedDar, reach: ReachableTypes | null): string {
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

export const inspectDarCommand: CliCommand = {
  command: 'inspect-dar <file>',
  describe: 'list the packages of a DAR/DALF (recomputed ids, names, versions, LF) and a template’s types',
  builder: (y: Argv) =>
    y
      .positional('file', { type: 'string', describe: '.dar or .dalf file' })
      .option('template', {
        type: 'string',
        describe: 'Module:Entity (or <packageId>:Module:Entity): print every data type it reaches',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  run: async (args, ctx) => {
    const file = String(args.file);
    const dar = await loadDarFile(file, { cwd: ctx.cwd });
    const reach = typeof args.template === 'string' ? computeDarTemplateTypes(dar, args.template) : null;
    ctx.stdout.write(args.json === true ? renderJson(file, dar, reach) : renderText(file, dar, reach));
    return EXIT_OK;
  },
};
