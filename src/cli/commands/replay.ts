/**
 * `reserve-audit replay --mirror <file> [--from <iso>] [--to <iso>] [--jobs <n>] [--json]`: re-verify every
 * reserve contract stored in the mirror (once per contract ID) and re-run the history checks over
 * the recorded period, with progress on stderr. Verification runs on `--jobs` worker threads
 * (default: one per available core; 1 = in-process). Exit 0 / 1 / 2 as for `audit`.
 */
import { resolve } from 'node:path';
import { parseIsoMicros } from '../../core/audit/index.js';
import { AuditError } from '../../errors/audit.js';
import { loadAuditProfile } from '../../run/audit.js';
import { defaultReplayJobs, runReplay } from '../../run/replay.js';
import type { CliCommand } from '../command.js';
import { createStyle, stringifyJson } from '../render/style.js';

function parseTime(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  const m = typeof v === 'string' ? parseIsoMicros(v) : null;
  if (m === null)
    throw new AuditError(
      'AUDIT_OPTION_INVALID',
      `"--${name}" expected an ISO 8601 timestamp with offset (e.g. 2026-11-22T03:00:00Z), got ${JSON.stringify(v)}`,
    );
  return Number(m / 1000n);
}

export const replayCommand: CliCommand = {
  command: 'replay',
  describe: 're-verify every contract stored in a mirror and re-run the history checks (exit 0/1/2)',
  builder: (y) =>
    y
      .option('mirror', { type: 'string', demandOption: true, describe: 'the SQLite mirror to replay' })
      .option('from', { type: 'string', describe: 'only contracts/observations at or after this ISO time' })
      .option('to', { type: 'string', describe: 'only contracts/observations before this ISO time' })
      .option('jobs', {
        type: 'number',
        describe: `verification worker threads (default: available cores, here ${defaultReplayJobs()}; 1 = in-process)`,
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print one JSON document {summary, findings, checks}',
      })
      .option('profile', {
        type: 'string',
        describe: 'reserve profile JSON (default: the bundled server template)',
      })
      .option('types', { type: 'string', array: true, describe: 'Daml type file(s) for V12 contract IDs' })
      .option('dar', { type: 'string', array: true, describe: 'DAR file(s) for V12 contract IDs' }),
  run: async (args, ctx) => {
    const fromMs = parseTime(args.from, 'from');
    const toMs = parseTime(args.to, 'to');
    if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs)
      throw new AuditError(
        'AUDIT_OPTION_INVALID',
        `"--from" expected a time before --to, got ${JSON.stringify(args.from)} ≥ ${JSON.stringify(args.to)}`,
      );
    const jobs = args.jobs === undefined ? undefined : Number(args.jobs);
    if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= 256))
      throw new AuditError(
        'AUDIT_OPTION_INVALID',
        `"--jobs" expected an integer from 1 to 256, got ${JSON.stringify(args.jobs)}`,
      );
    const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
    const profile = await loadAuditProfile({
      profilePath: args.profile === undefined ? null : String(args.profile),
      cwd: ctx.cwd,
    });
    const report = await runReplay({
      mirrorPath: resolve(ctx.cwd, String(args.mirror)),
      ...(fromMs === undefined ? {} : { fromMs }),
      ...(toMs === undefined ? {} : { toMs }),
      profile,
      typeFiles: list(args.types),
      dars: list(args.dar),
      cwd: ctx.cwd,
      ...(jobs === undefined ? {} : { jobs }),
      onProgress: (n, rate) =>
        ctx.stderr.write(`reserve-audit: replayed ${n} contracts (${Math.round(rate)}/s)\n`),
    });
    const s = report.summary;
    if (args.json === true) {
      ctx.stdout.write(
        `${stringifyJson({ summary: s, findings: report.findings, checks: report.checks.filter((c) => c.status !== 'pass') })}\n`,
      );
    } else {
      const st = createStyle(ctx.stdout, ctx.env);
      const word =
        s.outcome === 'passed'
          ? st.green('PASSED')
          : s.outcome === 'failed'
            ? st.red('FAILED')
            : st.yellow('COULD NOT CHECK');
      ctx.stdout.write(
        `${word}  ${s.mirror}  contracts ${s.contracts} (verified ${s.verified}, mismatch ${s.mismatch}, could not check ${s.couldNotCheck})  pools ${s.pools}  observations ${s.observations}  ${s.contractsPerSecond} contracts/s\n`,
      );
      for (const f of report.findings)
        ctx.stdout.write(`  ${f.severity} ${f.code}${f.pool === null ? '' : ` [${f.pool}]`} ${f.message}\n`);
    }
    return s.exitCode;
  },
};
