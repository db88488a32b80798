/**
 * `reserve-audit audit --base-url <url>`: fetch the exchange's public API, verify every reserve
 * proof, cross-check it with everything else the API asserts and with the mirror's history, and
 * report (the issue "reserve-audit audit"). stdout = the report (human, or --json); stderr =
 * progress and could-not-check reasons; `--html FILE` also writes the self-contained HTML report
 * (with the mirror's history when --mirror is given). Exit 0 all checks passed / 1 a check failed /
 * 2 could not check.
 */

import { MIRROR_ENV } from '../../io/store/index.js';
import { runAudit } from '../../run/audit.js';
import { loadPoolSeries, openMirrorForReading, type PoolHistoryRow } from '../../run/history.js';
import { defineCommand } from '../command.js';
import { exitCodeOf } from '../exit-codes.js';
import {
  baseUrlOption,
  darOption,
  jsonOption,
  parseBaseUrlOption,
  parseMirrorOption,
  parseOptionalPathOption,
  parseTimeoutOption,
  parseTypeSourceOptions,
  probeQuotesOption,
  profileOption,
  resolvePathOption,
  timeoutOption,
  typesOption,
} from '../options.js';
import { formatAuditJson } from '../render/audit-json.js';
import { formatAuditText, formatCouldNotCheckReasons } from '../render/audit-text.js';
import { formatHtmlReport } from '../render/html-report.js';
import { formatJunit } from '../render/junit.js';
import { loadReportAssets } from '../render/report-assets.js';
import { computeReportModelFromAudit } from '../render/report-model.js';
import { createStyle } from '../render/style.js';
import { writeOutputFile } from '../write-output.js';

export const auditCommand = defineCommand({
  command: 'audit',
  describe:
    "audit an exchange's published reserves over its public API (exit 0 passed, 1 failed, 2 could not check)",
  builder: (y) =>
    y
      .option('base-url', baseUrlOption)
      .option('mirror', {
        type: 'string',
        describe:
          'mirror (a SQLite file or a postgres:// URL; default $RESERVE_AUDIT_MIRROR when set): history is checked against it, then this audit is recorded',
      })
      .option('json', jsonOption('print one JSON document {summary, pools, findings, checks}'))
      .option('junit', {
        type: 'string',
        describe: 'also write JUnit XML (one testsuite per area) to this file',
      })
      .option('html', {
        type: 'string',
        describe: 'also write the self-contained HTML report (verdict, findings, pools, charts) to this file',
      })
      .option('profile', profileOption)
      .option('types', typesOption)
      .option('dar', darOption)
      .option('probe-quotes', probeQuotesOption)
      .option('timeout', timeoutOption)
      .option('verbose', { type: 'boolean', default: false, describe: 'list passed checks too' }),
  run: async (args, ctx) => {
    const timeoutMs = parseTimeoutOption(args.timeout);
    const { typeFiles, dars } = parseTypeSourceOptions(args);
    const htmlOut = args.html === undefined ? null : resolvePathOption('html', args.html, ctx.cwd);
    // read the page's assets first: a broken installation fails before the network is touched
    const assets = htmlOut === null ? null : await loadReportAssets();
    const mirrorPath =
      args.mirror === undefined && ctx.env[MIRROR_ENV] === undefined
        ? null
        : parseMirrorOption(args.mirror, ctx);
    const report = await runAudit({
      baseUrl: parseBaseUrlOption(args['base-url']),
      mirrorPath,
      profilePath: parseOptionalPathOption('profile', args.profile),
      typeFiles,
      dars,
      probeQuotes: args['probe-quotes'],
      timeoutMs,
      cwd: ctx.cwd,
      exitCodeOf: exitCodeOf,
      onProgress: (m) => ctx.stderr.write(`reserve-audit: ${m}\n`),
    });
    if (args.junit !== undefined)
      await writeOutputFile(
        'junit',
        resolvePathOption('junit', args.junit, ctx.cwd),
        formatJunit(report.checks, report.findings, 'reserve-audit', report.summary.coverage),
      );
    if (htmlOut !== null && assets !== null) {
      let series = new Map<string, PoolHistoryRow[]>();
      if (mirrorPath !== null && report.summary.mirror !== null) {
        const mirror = await openMirrorForReading(mirrorPath);
        try {
          series = await loadPoolSeries(mirror);
        } finally {
          await mirror.close();
        }
      }
      await writeOutputFile(
        'html',
        htmlOut,
        formatHtmlReport(computeReportModelFromAudit(report, series, new Date().toISOString()), assets),
      );
    }
    ctx.stdout.write(
      args.json
        ? formatAuditJson(report)
        : formatAuditText(report, createStyle(ctx.stdout, ctx.env), args.verbose),
    );
    ctx.stderr.write(formatCouldNotCheckReasons(report));
    return exitCodeOf(report.summary.outcome);
  },
});
