/**
 * `reserve-audit report --mirror <file> --html <out>`: a self-contained HTML page with the latest
 * audit run and per-pool inline-SVG charts of reserves, price and LP-share value over time.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadAuditRuns } from '../../io/store/index.js';
import { loadPoolSeries, openMirrorForReading } from '../../run/history.js';
import type { CliCommand } from '../command.js';
import { formatHtmlReport } from '../render/html-report.js';

export const reportCommand: CliCommand = {
  command: 'report',
  describe: 'write a self-contained HTML report (latest audit + per-pool charts) from a mirror',
  builder: (y) =>
    y
      .option('mirror', { type: 'string', demandOption: true, describe: 'the SQLite mirror' })
      .option('html', { type: 'string', demandOption: true, describe: 'output HTML file' }),
  run: async (args, ctx) => {
    const mirror = openMirrorForReading(resolve(ctx.cwd, String(args.mirror)));
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
              },
        pools: series,
      });
    } finally {
      mirror.close();
    }
    const out = resolve(ctx.cwd, String(args.html));
    await writeFile(out, html);
    ctx.stderr.write(`reserve-audit: wrote ${out} (${pools} pools, ${html.length} bytes)\n`);
    return 0;
  },
};
