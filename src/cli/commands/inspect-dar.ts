/**
 * `reserve-audit inspect-dar <file> [--json] [--template <Module:Entity>]` (docs/protocol/dar-format.md §2,
 * §3, §6): lists the packages of a DAR (or bare DALF) — package id (always recomputed as SHA-256 of the
 * payload, and whether it matches the declared hash), name, version, LF version — and with
 * `--template` every data type reachable from that template's argument.
 */
import type { PackageTypes } from '../../core/types/daml-type.js';
import { computeReachableTypes, type LoadedDar, type ReachableTypes } from '../../core/types/dar/index.js';
import { loadDarFile } from '../../io/files/dar-file.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { jsonOption, parsePathOption, parseTemplateOption, type TemplateOption } from '../options.js';
import { formatDarJson, formatDarText } from '../render/dar.js';
import { COMMAND_CATALOG } from './catalog.js';

/** Finds the reachable types of a template in a loaded DAR (main package first). */
export function computeDarTemplateTypes(dar: LoadedDar, template: TemplateOption): ReachableTypes {
  const byId = new Map<string, PackageTypes>(dar.packages.map((p) => [p.packageId, p.types]));
  return computeReachableTypes(byId, template, template.packageId);
}

export const inspectDarCommand = defineCommand({
  ...COMMAND_CATALOG['inspect-dar'],
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: '.dar or .dalf file' })
      .option('template', {
        type: 'string',
        describe: 'Module:Entity (or <packageId>:Module:Entity): print every data type it reaches',
      })
      .option('json', jsonOption('print JSON')),
  run: async (args, ctx) => {
    const file = parsePathOption('file', args.file ?? '');
    const template = args.template === undefined ? null : parseTemplateOption(args.template);
    const dar = await loadDarFile(file, { cwd: ctx.cwd });
    const reach = template === null ? null : computeDarTemplateTypes(dar, template);
    ctx.stdout.write(args.json ? formatDarJson(file, dar, reach) : formatDarText(file, dar, reach));
    return EXIT_OK;
  },
});
