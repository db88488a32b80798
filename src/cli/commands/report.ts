/**
 * `reserve-audit report --mirror <file> --html <out>`: a self-contained HTML page with the latest
 * audit run and per-pool inline-SVG charts of reserves, price and LP-share value over time.
 */
import { writeFile } from 'node:fs/promises';
import { loadAuditRuns } from '../../io/store/index.js';
import { loadPoolSeries, openMirrorForReading } from '../../run/history.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { mirrorOption, resolvePathOption } from '../options.js';
import { formatHtmlReport } from '../render/html-report.js';

export const reportCommand = defineCommand({
  command: 'report',
  describe: 'write a self-contained HTML report (latest audit + per-pool charts) from a mirror',
  builder: (y) =>
    y
      .option('mirror', mirrorOption)
      .option('html', { type: 'string', demandOption: true, describe: 'output HTML file' }),
  run: async (args, ctx) => {
    const out = resolvePathOption('html', args.html, ctx.cwd);
    const mirror = openMirrorForReading(resolvePathOption('mirror', args.mirror, ctx.cwd));
    let html: string;
    let pools = 0;
    try {
      const run = loadAuditRuns(mirror, { limit: 1 })[0];
      const series = loadPoolSeries(mirror);
      pools = series.size;
      html = formatHtmlReport({
        title: 'reserve-audit report',
        generatedAt: new Date().toISOString(),
        latestRun:
          run === undefined
            ? null
            : {
                id: run.id,
                baseUrl: run.baseUrl,
                startedAt: new Date(run.startedAtMs).toISOString(),
                outcome: run.outcome,
                checks: run.checks,
                findings: run.findings,
                coverage: readCoverageLines(run.summary),
              },
        pools: series,
      });
    } finally {
      mirror.close();
    }
    await writeFile(out, html);
    ctx.stderr.write(`reserve-audit: wrote ${out} (${pools} pools, ${html.length} bytes)\n`);
    return EXIT_OK;
  },
});

/** The coverage lines of a recorded run's summary (`summary.coverage.*.text`); [] for runs recorded without one. */
function readCoverageLines(summary: Readonly<Record<string, unknown>>): string[] {
  const c = summary.coverage;
  if (typeof c !== 'object' || c === null) return [];
  const out: string[] = [];
  for (const key of ['quotes', 'history', 'types']) {
    const item = (c as Record<string, unknown>)[key];
    const text =
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>).text : undefined;
    if (typeof text === 'string') out.push(text);
  }
  return out;
}
