/**
 * `reserve-audit verifier --out verify.html`: writes the single-file verifier page (issue 13) — the
 * pure core bundled for the browser (dist/web/verifier.js, built by `npm run build`) inlined into
 * one HTML file that checks contract IDs offline, with the bundled reference server's types built
 * in. Exit 0.
 */
import { readDefaultTypeFileText } from '../../io/files/default-types.js';
import { escapeInlineScript, readWebAsset } from '../../io/files/web-assets.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { resolvePathOption } from '../options.js';
import { formatVerifierPage } from '../render/verifier-page.js';
import { writeOutputFile } from '../write-output.js';
import { COMMAND_CATALOG } from './catalog.js';

export const verifierCommand = defineCommand({
  ...COMMAND_CATALOG.verifier,
  builder: (y) => y.option('out', { type: 'string', demandOption: true, describe: 'output HTML file' }),
  run: async (args, ctx) => {
    const out = resolvePathOption('out', args.out, ctx.cwd);
    const html = formatVerifierPage(
      escapeInlineScript(await readWebAsset('verifier.js')),
      escapeInlineScript(await readDefaultTypeFileText()),
    );
    await writeOutputFile('out', out, html);
    ctx.stderr.write(`reserve-audit: wrote ${out} (${html.length} bytes)\n`);
    return EXIT_OK;
  },
});
