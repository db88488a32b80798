/**
 * `reserve-audit replay --mirror <file> [--from <iso>] [--to <iso>] [--jobs auto|<n>] [--json]`: re-verify every
 * reserve contract stored in the mirror (once per contract ID) and re-run the history checks over
 * the recorded period, with progress on stderr. Verification runs on `--jobs` threads: this one
 * and `--jobs` − 1 workers (default `auto`: in-process for small mirrors, workers reading the mirror
 * themselves for large ones; 1 = in-process). Exit 0 / 1 / 2 as for `audit`.
 */
import { formatGot } from '../../errors/base.js';
import { UsageError } from '../../errors/usage.js';
import { loadReserveProfile } from '../../io/files/profile-file.js';
import { defaultReplayJobs, runReplay } from '../../run/replay.js';
import { defineCommand } from '../command.js';
import { exitCodeOf } from '../exit-codes.js';
import {
  darOption,
  jsonOption,
  mirrorOption,
  parseJobsOption,
  parseOptionalPathOption,
  parseTimeOption,
  parseTypeSourceOptions,
  profileOption,
  resolvePathOption,
  typesOption,
} from '../options.js';
import { formatReplayJson, formatReplayText } from '../render/replay.js';
import { createStyle } from '../render/style.js';

export const replayCommand = defineCommand({
  command: 'replay',
  describe: 're-verify every contract stored in a mirror and re-run the history checks (exit 0/1/2)',
  builder: (y) =>
    y
      .option('mirror', mirrorOption)
      .option('from', { type: 'string', describe: 'only contracts/observations at or after this ISO time' })
      .option('to', { type: 'string', describe: 'only contracts/observations before this ISO time' })
      .option('jobs', {
        type: 'string',
        describe: `verifying threads, this one and n − 1 workers: auto (default: no workers for small mirrors or < 3 cores, else at most cores − 1 threads; cores here ${defaultReplayJobs()}), or a number n (1 = in-process)`,
      })
      .option('json', jsonOption('print one JSON document {summary, findings, checks}'))
      .option('profile', profileOption)
      .option('types', typesOption)
      .option('dar', darOption),
  run: async (args, ctx) => {
    const fromMs = parseTimeOption('from', args.from);
    const toMs = parseTimeOption('to', args.to);
    if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs)
      throw new UsageError(
        'OPTION_INVALID',
        `"--from" expected a time before --to, got ${formatGot(args.from)} ≥ ${formatGot(args.to)}`,
      );
    const jobs = parseJobsOption(args.jobs);
    const { typeFiles, dars } = parseTypeSourceOptions(args);
    const mirrorPath = resolvePathOption('mirror', args.mirror, ctx.cwd);
    const profile = await loadReserveProfile({
      profilePath: parseOptionalPathOption('profile', args.profile),
      cwd: ctx.cwd,
    });
    const report = await runReplay({
      mirrorPath,
      ...(fromMs === undefined ? {} : { fromMs }),
      ...(toMs === undefined ? {} : { toMs }),
      profile,
      typeFiles,
      dars,
      cwd: ctx.cwd,
      ...(jobs === undefined ? {} : { jobs }),
      exitCodeOf: exitCodeOf,
      onProgress: (n, rate) =>
        ctx.stderr.write(`reserve-audit: replayed ${n} contracts (${Math.round(rate)}/s)\n`),
    });
    ctx.stdout.write(
      args.json ? formatReplayJson(report) : formatReplayText(report, createStyle(ctx.stdout, ctx.env)),
    );
    return exitCodeOf(report.summary.outcome);
  },
});
