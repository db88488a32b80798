/**
 * `reserve-audit report --mirror <file> --html <out>`: the self-contained HTML report (issue 13) of
 * the latest audit run recorded in a mirror — verdict, findings, pool table, per-pool charts.
 */
import { loadPoolSeries, openMirrorForReading } from '../../run/history.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { mirrorOption, parseMirrorOption, resolvePathOption } from '../options.js';
import { formatHtmlReport } from '../render/html-report.js';
import { loadReportAssets } from '../render/report-assets.js';
import { buildReportModelFromMirror } from '../render/report-model.js';
import { writeOutputFile } from '../write-output.js';
import { COMMAND_CATALOG } from './catalog.js';

export const reportCommand = defineCommand({
  ...COMMAND_CATALOG.report,
  builder: (y) =>
    y
      .option('mirror', mirrorOption)
      .option('html', { type: 'string', demandOption: true, describe: 'output HTML file' }),
  run: async (args, ctx) => {
    const out = resolvePathOption('html', args.html, ctx.cwd);
    const assets = await loadReportAssets();
    const mirror = await openMirrorForReading(parseMirrorOption(args.mirror, ctx));
    let html: string;
    let pools = 0;
    try {
      const run = (await mirror.readAuditRuns({ limit: 1 }))[0] ?? null;
      const series = await loadPoolSeries(mirror);
      pools = series.size;
      html = formatHtmlReport(buildReportModelFromMirror(run, series, new Date().toISOString()), assets);
    } finally {
      await mirror.close();
    }
    await writeOutputFile('html', out, html);
    ctx.stderr.write(`reserve-audit: wrote ${out} (${pools} pools, ${html.length} bytes)\n`);
    return EXIT_OK;
  },
});
