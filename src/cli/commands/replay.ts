/**
 * `reserve-audit replay --mirror <file|postgres://…> [--from <iso>] [--to <iso>] [--json]`: re-verify every
 * reserve contract stored in the mirror (once per contract ID), in this thread, and re-run the
 * history checks over the recorded period, with progress on stderr. Exit 0 / 1 / 2 as for `audit`.
 * `--jobs` is still accepted for one version and ignored, with one line on stderr (docs/cli.md
 * "replay"): the worker threads it chose were removed (docs/bench/audit.md).
 * On a PostgreSQL mirror the work can be spread over processes and machines (docs/mirror.md
 * "Distributed replay"): `--run` coordinates a run and prints the same report, `--worker` processes
 * verify its batches (exit 0 when there is no open run left, 2 when the mirror is unusable).
 */
import { formatGot } from '../../errors/base.js';
import { loadReserveProfile } from '../../io/files/profile-file.js';
import { isPostgresTarget } from '../../io/store/index.js';
import { runReplay } from '../../run/replay.js';
import { runReplayWorker } from '../../run/replay-distributed.js';
import { defineCommand } from '../command.js';
import { EXIT_OK, exitCodeOf } from '../exit-codes.js';
import {
  failOptionText,
  jsonOption,
  mirrorOption,
  parseIntervalOption,
  parseMirrorOption,
  parseProofSourceOptions,
  parseTimeOption,
  proofSourceOptions,
} from '../options.js';
import { formatReplayJson, formatReplayText } from '../render/replay.js';
import { createStyle } from '../render/style.js';
import { COMMAND_CATALOG } from './catalog.js';

/** What `--jobs` prints (once) since replay's worker threads were removed; the option goes next version. */
const JOBS_NOTICE =
  'reserve-audit: --jobs is no longer used: replay verifies in one thread (docs/bench/audit.md)';

export const replayCommand = defineCommand({
  ...COMMAND_CATALOG.replay,
  builder: (y) =>
    y
      .option('mirror', mirrorOption)
      .option('from', { type: 'string', describe: 'only contracts/observations at or after this ISO time' })
      .option('to', { type: 'string', describe: 'only contracts/observations before this ISO time' })
      .option('jobs', {
        type: 'string',
        describe: 'no longer used (replay verifies in one thread); accepted for one version, with a notice',
      })
      .option('run', {
        type: 'boolean',
        default: false,
        describe:
          'PostgreSQL mirror: coordinate a distributed run that --worker processes share, print its report',
      })
      .option('worker', {
        type: 'boolean',
        default: false,
        describe:
          'PostgreSQL mirror: verify batches of open runs until none is left (run as many as you like)',
      })
      .option('work', {
        type: 'boolean',
        default: true,
        describe: '--run: verify batches in this process too (--no-work: only coordinate and wait)',
      })
      .option('lease', {
        type: 'string',
        describe:
          '--run: how long a worker holds a claimed batch before others may take it over; --worker: how long a run may stay open with every batch done before its coordinator is presumed dead and the run abandoned (default 60s)',
      })
      .option('wait', {
        type: 'string',
        describe: '--worker: how long to wait for a run to appear before exiting (default 60s)',
      })
      .option('json', jsonOption('print one JSON document {summary, findings, checks}'))
      .options(proofSourceOptions),
  run: async (args, ctx) => {
    const fromMs = parseTimeOption('from', args.from);
    const toMs = parseTimeOption('to', args.to);
    if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs)
      failOptionText('from', 'a time before --to', `${formatGot(args.from)} ≥ ${formatGot(args.to)}`);
    if (args.jobs !== undefined) ctx.stderr.write(`${JOBS_NOTICE}\n`);
    const { profilePath, typeFiles, dars } = parseProofSourceOptions(args);
    const mirrorPath = parseMirrorOption(args.mirror, ctx);
    if (args.run && args.worker) failOptionText('run', 'without --worker (one process, one role)', 'both');
    if ((args.run || args.worker) && !isPostgresTarget(mirrorPath))
      failOptionText(
        args.run ? 'run' : 'worker',
        'a postgres:// mirror (a shared database)',
        'a SQLite file',
      );
    const leaseMs = parseIntervalOption('lease', args.lease);
    const waitMs = parseIntervalOption('wait', args.wait);
    let lastDone = -1;
    if (args.worker) {
      const w = await runReplayWorker({
        mirrorPath,
        typeFiles,
        dars,
        cwd: ctx.cwd,
        ...(waitMs === undefined ? {} : { waitMs }),
        ...(leaseMs === undefined ? {} : { coordinatorLeaseMs: leaseMs }),
        onBatch: (run, seq, n) =>
          ctx.stderr.write(`reserve-audit: verified run ${run} batch ${seq} (${n} contracts)\n`),
      });
      ctx.stdout.write(`${JSON.stringify(w)}\n`);
      return EXIT_OK;
    }
    const profile = await loadReserveProfile({
      profilePath,
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
      ...(args.run
        ? {
            distributed: {
              work: args.work,
              ...(leaseMs === undefined ? {} : { leaseMs }),
              onWaiting: (done: number, batches: number) => {
                if (done === lastDone) return;
                lastDone = done;
                ctx.stderr.write(`reserve-audit: run: ${done}/${batches} batches done\n`);
              },
            },
          }
        : {}),
      onProgress: (n, rate) =>
        ctx.stderr.write(`reserve-audit: replayed ${n} contracts (${Math.round(rate)}/s)\n`),
    });
    ctx.stdout.write(
      args.json ? formatReplayJson(report) : formatReplayText(report, createStyle(ctx.stdout, ctx.env)),
    );
    return exitCodeOf(report.summary.outcome);
  },
});
