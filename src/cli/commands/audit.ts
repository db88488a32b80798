/**
 * `reserve-audit audit --base-url <url>`: fetch the exchange's public API, verify every reserve
 * proof, cross-check it with everything else the API asserts and with the mirror's history, and
 * report (the issue "reserve-audit audit"). stdout = the report (human, or --json); stderr =
 * progress and could-not-check reasons. Exit 0 all checks passed / 1 a check failed / 2 could
 * not check.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AuditError } from '../../errors/audit.js';
import { type AuditReport, runAudit } from '../../run/audit.js';
import type { CliCommand, CliContext } from '../command.js';
import { formatAuditText } from '../render/audit-text.js';
import { formatJunit } from '../render/junit.js';
import { createStyle, stringifyJson } from '../render/style.js';

/** The --json document: {summary, pools, findings, checks}. */
export function formatAuditJson(r: AuditReport): string {
  return `${stringifyJson({ summary: r.summary, pools: r.pools, findings: r.findings, checks: r.checks })}\n`;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];

/** Writes the could-not-check reasons (and failed counts) to stderr. */
export function reportOutcome(r: AuditReport, ctx: CliContext): void {
  if (r.summary.outcome !== 'could-not-check') return;
  const reasons = r.findings.filter((f) => f.label === 'could-not-check');
  for (const f of reasons.slice(0, 5))
    ctx.stderr.write(
      `reserve-audit: could not check: ${f.code}${f.pool === null ? '' : ` (${f.pool})`}: ${f.message}\n`,
    );
  if (reasons.length > 5) ctx.stderr.write(`reserve-audit: … and ${reasons.length - 5} more\n`);
}

export const auditCommand: CliCommand = {
  command: 'audit',
  describe:
    "audit an exchange's published reserves over its public API (exit 0 passed, 1 failed, 2 could not check)",
  builder: (y) =>
    y
      .option('base-url', {
        type: 'string',
        demandOption: true,
        describe: 'public API base, e.g. http://127.0.0.1:8080/v1/public',
      })
      .option('mirror', {
        type: 'string',
        describe: 'SQLite mirror: history is checked against it, then this audit is recorded',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print one JSON document {summary, pools, findings, checks}',
      })
      .option('junit', {
        type: 'string',
        describe: 'also write JUnit XML (one testsuite per area) to this file',
      })
      .option('profile', {
        type: 'string',
        describe: 'reserve profile JSON (default: the bundled server template)',
      })
      .option('types', { type: 'string', array: true, describe: 'Daml type file(s) for V12 contract IDs' })
      .option('dar', { type: 'string', array: true, describe: 'DAR file(s) for V12 contract IDs' })
      .option('probe-quotes', {
        type: 'boolean',
        default: false,
        describe: 'send probe quotes to POST /connect/quote and check them',
      })
      .option('timeout', { type: 'number', default: 15000, describe: 'per-request timeout in ms' })
      .option('verbose', { type: 'boolean', default: false, describe: 'list passed checks too' }),
  run: async (args, ctx) => {
    const timeout = Number(args.timeout);
    if (!Number.isInteger(timeout) || timeout < 1 || timeout > 600_000)
      throw new AuditError(
        'AUDIT_OPTION_INVALID',
        `"--timeout" expected an integer 1..600000 (ms), got ${JSON.stringify(args.timeout)}`,
      );
    const report = await runAudit({
      baseUrl: String(args['base-url']),
      mirrorPath: args.mirror === undefined ? null : String(args.mirror),
      profilePath: args.profile === undefined ? null : String(args.profile),
      typeFiles: strings(args.types),
      dars: strings(args.dar),
      probeQuotes: args['probe-quotes'] === true,
      timeoutMs: timeout,
      cwd: ctx.cwd,
      onProgress: (m) => ctx.stderr.write(`reserve-audit: ${m}\n`),
    });
    if (args.junit !== undefined)
      await writeFile(resolve(ctx.cwd, String(args.junit)), formatJunit(report.checks, report.findings));
    ctx.stdout.write(
      args.json === true
        ? formatAuditJson(report)
        : formatAuditText(report, createStyle(ctx.stdout, ctx.env), args.verbose === true),
    );
    reportOutcome(report, ctx);
    return report.summary.exitCode;
  },
};
