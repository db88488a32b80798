/**
 * `reserve-audit types --dar <file> --template <Module:Entity> [--out <file>]`
 * (docs/protocol/dar-format.md §6; docs/type-file.md): writes a JSON type file holding exactly the data
 * types reachable from one template, read from a DAR — a small, reviewable input for
 * `verify-contract --types` that needs no DAR afterwards.
 */
import { basename } from 'node:path';
import { formatQualifiedName } from '../../core/types/daml-type.js';
import { formatTypeFile } from '../../core/types/type-file.js';
import { loadDarFile } from '../../io/files/dar-file.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { parseSingleFileOption, parseTemplateOption, resolvePathOption } from '../options.js';
import { writeOutputFile } from '../write-output.js';
import { COMMAND_CATALOG } from './catalog.js';
import { computeDarTemplateTypes } from './inspect-dar.js';

export const typesCommand = defineCommand({
  ...COMMAND_CATALOG.types,
  builder: (y) =>
    y
      // an array so that a repeated --dar is seen (and refused) rather than silently typed as a string
      .option('dar', { type: 'string', array: true, demandOption: true, describe: '.dar or .dalf file' })
      .option('template', {
        type: 'string',
        demandOption: true,
        describe: 'Module:Entity (or <packageId>:Module:Entity)',
      })
      .option('out', { type: 'string', describe: 'output file (default: stdout)' }),
  run: async (args, ctx) => {
    const darArg = parseSingleFileOption('dar', args.dar);
    const template = parseTemplateOption(args.template);
    const dar = await loadDarFile(darArg, { cwd: ctx.cwd });
    const reach = computeDarTemplateTypes(dar, template);
    const tpl = formatQualifiedName(reach.dataTypes[0]!.def.name);
    const pkg = reach.templatePackage;
    const text = formatTypeFile(reach.packages, {
      source_path: basename(darArg),
      notes:
        `data types reachable from template ${tpl} of ${pkg.name} ${pkg.version} (${pkg.packageId}), ` +
        `read by reserve-audit types from ${basename(darArg)}` +
        (dar.manifest?.sdkVersion ? ` (Sdk-Version ${dar.manifest.sdkVersion})` : ''),
    });
    if (args.out !== undefined) {
      await writeOutputFile('out', resolvePathOption('out', args.out, ctx.cwd), text);
      ctx.stderr.write(
        `wrote ${args.out}: ${reach.dataTypes.length} data types from ${reach.packages.length} packages for ${tpl}\n`,
      );
    } else ctx.stdout.write(text);
    return EXIT_OK;
  },
});
