/**
 * `reserve-audit mirror stats --mirror <file> [--json]` and `reserve-audit mirror prune --mirror
 * <file> --keep-raw <duration> [--no-vacuum] [--json]`: the size of a mirror by table, its
 * snapshots, pools and time span; and dropping the raw HTTP responses of snapshots older than the
 * retention window (everything audit, replay, history and report read is kept), then VACUUM.
 */
import { UsageError } from '../../errors/usage.js';
import { isPostgresTarget } from '../../io/store/index.js';
import { computeMirrorGrowth, runMirrorPrune, runMirrorStats } from '../../run/mirror.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import {
  ARCHIVE_DURATION,
  jsonOption,
  mirrorOption,
  parseDurationOption,
  parseMirrorOption,
  RETENTION_DURATION,
} from '../options.js';
import { formatMirrorPruneText, formatMirrorStatsText } from '../render/mirror.js';
import { stringifyJson } from '../render/style.js';
import { COMMAND_CATALOG } from './catalog.js';

export const mirrorCommand = defineCommand({
  ...COMMAND_CATALOG.mirror,
  builder: (y) =>
    y
      .positional('action', {
        choices: ['stats', 'prune'] as const,
        demandOption: true,
        describe: 'what to do',
      })
      .option('mirror', mirrorOption)
      .option('keep-raw', {
        type: 'string',
        describe: 'prune: keep the raw responses of the snapshots of the last <duration> (7d, 12h, 0)',
      })
      .option('archive', {
        type: 'string',
        describe:
          'prune: also move contracts and observations recorded more than <duration> ago (30d, 12h; ≥ 1h) into compressed chunks (SQLite)',
      })
      .option('vacuum', { type: 'boolean', default: true, describe: 'prune: rebuild the file afterwards' })
      .option('json', jsonOption('print one JSON document')),
  run: async (args, ctx) => {
    const path = parseMirrorOption(args.mirror, ctx);
    if (args.action === 'stats') {
      for (const name of ['keep-raw', 'archive'] as const)
        if (args[name] !== undefined)
          throw new UsageError(
            'OPTION_INVALID',
            `"--${name}" expected with mirror prune only, got mirror stats`,
          );
      const s = await runMirrorStats(path);
      ctx.stdout.write(
        args.json ? `${stringifyJson({ ...s, growth: computeMirrorGrowth(s) })}\n` : formatMirrorStatsText(s),
      );
      return EXIT_OK;
    }
    if (args['keep-raw'] === undefined)
      throw new UsageError(
        'OPTION_INVALID',
        '"--keep-raw" expected a duration like 7d for mirror prune, got nothing',
      );
    const keepRawMs = parseDurationOption('keep-raw', args['keep-raw'], RETENTION_DURATION);
    const archiveMs =
      args.archive === undefined ? undefined : parseDurationOption('archive', args.archive, ARCHIVE_DURATION);
    if (archiveMs !== undefined && isPostgresTarget(path))
      throw new UsageError(
        'OPTION_INVALID',
        '"--archive" expected an SQLite mirror, got a PostgreSQL URL (PostgreSQL keeps every row)',
      );
    const r = await runMirrorPrune({
      path,
      keepRawMs,
      vacuum: args.vacuum,
      ...(archiveMs === undefined ? {} : { archiveMs }),
    });
    ctx.stdout.write(args.json ? `${stringifyJson(r)}\n` : formatMirrorPruneText(r));
    return EXIT_OK;
  },
});
