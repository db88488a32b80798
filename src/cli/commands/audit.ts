/**
 * `reserve-audit audit --base-url <url>`: fetch the exchange's public API, verify every reserve
 * proof, cross-check it with everything else the API asserts and with the mirror's history, and
 * report (the issue "reserve-audit audit"). stdout = the report (human, or --json); stderr =
 * progress and could-not-check reasons; `--html FILE` also writes the self-contained HTML report
 * (with the mirror's history when --mirror is given). Exit 0 all checks passed / 1 a check failed /
 * 2 could not check. Once the options parse, every output asked for is written even when the audit
 * cannot complete (unreachable exchange, a bug): a document saying so and why.
 */

import { formatDisplayText } from '../../core/wire/display-text.js';
import { MIRROR_ENV } from '../../io/store/index.js';
import { type AuditReport, runAudit } from '../../run/audit.js';
import { loadPoolSeries, openMirrorForReading, type PoolHistoryRow } from '../../run/history.js';
import { type CliContext, defineCommand } from '../command.js';
import { exitCodeOf } from '../exit-codes.js';
import {
  ledgerApiOption,
  ledgerPartyOption,
  ledgerTokenFileOption,
  parseLedgerOptions,
} from '../ledger-options.js';
import {
  baseUrlOption,
  jsonOption,
  parseBaseUrlOption,
  parseMirrorOption,
  parseProofSourceOptions,
  parseSnapshotFetchOptions,
  proofSourceOptions,
  resolvePathOption,
  snapshotFetchOptions,
} from '../options.js';
import { buildAuditFailure } from '../render/audit-failure.js';
import { formatAuditFailureJson, formatAuditJson } from '../render/audit-json.js';
import { formatAuditText, formatCouldNotCheckReasons } from '../render/audit-text.js';
import { formatHtmlFailure, formatHtmlReport } from '../render/html-report.js';
import { formatJunit, formatJunitFailure } from '../render/junit.js';
import { createProgress } from '../render/progress.js';
import { loadReportAssets } from '../render/report-assets.js';
import { buildReportModelFromAudit } from '../render/report-model.js';
import { createStyle } from '../render/style.js';
import { writeOutputFile } from '../write-output.js';
import { COMMAND_CATALOG } from './catalog.js';

export const auditCommand = defineCommand({
  ...COMMAND_CATALOG.audit,
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
      .options(proofSourceOptions)
      .options(snapshotFetchOptions)
      .option('ledger-api', ledgerApiOption)
      .option('ledger-token-file', ledgerTokenFileOption)
      .option('ledger-party', ledgerPartyOption)
      .option('verbose', { type: 'boolean', default: false, describe: 'list passed checks too' }),
  run: async (args, ctx) => {
    const { timeoutMs, pacing } = parseSnapshotFetchOptions(args);
    const { profilePath, typeFiles, dars } = parseProofSourceOptions(args);
    const baseUrl = parseBaseUrlOption(args['base-url']);
    const junitOut = args.junit === undefined ? null : resolvePathOption('junit', args.junit, ctx.cwd);
    const htmlOut = args.html === undefined ? null : resolvePathOption('html', args.html, ctx.cwd);
    const mirrorPath =
      args.mirror === undefined && ctx.env[MIRROR_ENV] === undefined
        ? null
        : parseMirrorOption(args.mirror, ctx);
    const ledger = await parseLedgerOptions(args, ctx);
    // past option parsing: from here on every output asked for is written — when the audit does not
    // complete, a document saying so and why (the CI contract, docs/cli.md "audit")
    let report: AuditReport;
    try {
      // read the page's assets first: a broken installation fails before the network is touched
      const assets = htmlOut === null ? null : await loadReportAssets();
      // progress lines always; counts on a terminal only (nothing of them on a pipe)
      const counts = createProgress(ctx.stderr, ctx.env);
      report = await runAudit({
        baseUrl,
        mirrorPath,
        profilePath,
        typeFiles,
        dars,
        probeQuotes: args['probe-quotes'],
        ledger,
        timeoutMs,
        ...pacing,
        cwd: ctx.cwd,
        onProgress: (m) => counts.line(`reserve-audit: ${m}`),
        onCount: (m) => counts.update(`reserve-audit: ${m}`),
      });
      counts.clear();
      if (junitOut !== null) {
        const xml = formatJunit(
          report.checks,
          report.findings,
          'reserve-audit',
          report.summary.coverage,
          report.summary.assurance,
        );
        await writeOutputFile('junit', junitOut, xml);
        ctx.stderr.write(
          `reserve-audit: wrote ${junitOut} (${report.checks.length} checks, ${xml.length} bytes)\n`,
        );
      }
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
        const html = formatHtmlReport(
          buildReportModelFromAudit(report, series, new Date().toISOString()),
          assets,
        );
        await writeOutputFile('html', htmlOut, html);
        ctx.stderr.write(
          `reserve-audit: wrote ${htmlOut} (${report.summary.pools} pools, ${html.length} bytes)\n`,
        );
      }
      ctx.stdout.write(
        args.json
          ? formatAuditJson(report)
          : formatAuditText(report, createStyle(ctx.stdout, ctx.env), args.verbose),
      );
    } catch (e) {
      await writeAuditFailureOutputs(e, baseUrl.display, { json: args.json, junitOut, htmlOut }, ctx);
      throw e; // main() prints it as one line and exits 2 (3 for a bug)
    }
    ctx.stderr.write(formatCouldNotCheckReasons(report));
    return exitCodeOf(report.summary.outcome);
  },
});

interface AuditOutputs {
  readonly json: boolean;
  readonly junitOut: string | null;
  readonly htmlOut: string | null;
}

/**
 * The outputs asked for, when the audit did not complete (`e` ended it): the JUnit file has one
 * errored testcase naming the cause, the HTML page says could not check (or internal error) and why,
 * `--json` prints the failure document (src/cli/render/audit-failure.ts). A file that cannot be
 * written is one more line on stderr; the outputs written before `e` are replaced, so that every
 * output agrees with the exit code.
 */
async function writeAuditFailureOutputs(
  e: unknown,
  baseUrl: string,
  o: AuditOutputs,
  ctx: CliContext,
): Promise<void> {
  const f = buildAuditFailure(e, baseUrl, new Date().toISOString());
  const files = [
    ['junit', o.junitOut, () => formatJunitFailure(f)],
    ['html', o.htmlOut, () => formatHtmlFailure(f)],
  ] as const;
  for (const [option, path, format] of files) {
    if (path === null) continue;
    try {
      await writeOutputFile(option, path, format());
    } catch (w) {
      // the same file failing again is what `e` already says
      const said = w instanceof Error && e instanceof Error && w.message === e.message;
      if (!said)
        ctx.stderr.write(`reserve-audit: ${formatDisplayText(w instanceof Error ? w.message : String(w))}\n`);
    }
  }
  if (o.json) ctx.stdout.write(formatAuditFailureJson(f));
}
