/**
 * `reserve-audit mirror stats --mirror <file> [--json]` and `reserve-audit mirror prune --mirror
 * <file> --keep-raw <duration> [--no-vacuum] [--json]`: the size of a mirror by table, its
 * snapshots, pools and time span; and dropping the raw HTTP responses of snapshots older than the
 * retention window (everything audit, replay, history and report read is kept), then VACUUM.
 *
 * `reserve-audit mirror follow --mirror M --ledger-api URL --ledger-party P [--ledger-token-file F]
 * [--once] [--every 500ms] [--json]`: follows a participant's update stream of the reserve templates
 * into the mirror from its stored offset and checks each pool's reserve chain (docs/mirror.md
 * "Following the ledger"). An action of `mirror` rather than a command of its own: it writes the
 * mirror and nothing else, like the other actions, and the issue names it `mirror follow`. Exit 0
 * (chains intact), 1 (a chain error), 2 (`--once`: the participant could not answer); SIGINT/SIGTERM
 * end it at once (130/143) like every other command: each page is committed with its offset, so
 * nothing is lost and the next run resumes there.
 */
import type { Argv } from 'yargs';
import { isPostgresTarget, openMirrorStore } from '../../io/store/index.js';
import { computeMirrorGrowth, runMirrorPrune, runMirrorStats } from '../../run/mirror.js';
import { runMirrorFollow } from '../../run/mirror-follow.js';
import { type CliContext, defineCommand } from '../command.js';
import { EXIT_COULD_NOT_CHECK, EXIT_FAILED, EXIT_OK, type ExitCode } from '../exit-codes.js';
import {
  ledgerApiOption,
  ledgerPartyOption,
  ledgerTokenFileOption,
  parseLedgerOptions,
} from '../ledger-options.js';
import {
  ARCHIVE_DURATION,
  failOptionText,
  jsonOption,
  mirrorOption,
  parseDurationOption,
  parseIntervalOption,
  parseMirrorOption,
  parseProofSourceOptions,
  parseTimeoutOption,
  proofSourceOptions,
  RETENTION_DURATION,
  timeoutOption,
} from '../options.js';
import {
  formatFollowReportText,
  formatFollowRoundText,
  formatMirrorPruneText,
  formatMirrorStatsText,
} from '../render/mirror.js';
import { stringifyJson } from '../render/style.js';
import { COMMAND_CATALOG } from './catalog.js';

/** The options only one action takes (checked in this order); any other action refuses them. */
const ACTION_ONLY_OPTIONS = [
  ['follow', ['ledger-api', 'ledger-token-file', 'ledger-party', 'every']],
  ['prune', ['keep-raw', 'archive']],
] as const;

const buildMirrorOptions = (y: Argv) =>
  y
    .positional('action', {
      choices: ['stats', 'prune', 'follow'] as const,
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
    .option('ledger-api', {
      ...ledgerApiOption,
      describe: "follow: the participant's JSON Ledger API v2 root (the part before /v2)",
    })
    .option('ledger-token-file', ledgerTokenFileOption)
    .option('ledger-party', ledgerPartyOption)
    .option('once', {
      type: 'boolean',
      default: false,
      describe: 'follow: one round up to the ledger end, then stop',
    })
    .option('every', { type: 'string', describe: 'follow: start a round every <duration> (default 500ms)' })
    .options(proofSourceOptions)
    .option('timeout', timeoutOption)
    .option('json', jsonOption('print one JSON document (follow: one JSON line per round, then the report)'));

/** The arguments of `mirror`, typed from its options. */
type MirrorArgs = ReturnType<typeof buildMirrorOptions> extends Argv<infer A> ? A : never;

export const mirrorCommand = defineCommand({
  ...COMMAND_CATALOG.mirror,
  builder: buildMirrorOptions,
  run: async (args, ctx) => {
    const path = parseMirrorOption(args.mirror, ctx);
    for (const [action, names] of ACTION_ONLY_OPTIONS)
      for (const name of names)
        if (args.action !== action && args[name] !== undefined)
          failOptionText(name, `with mirror ${action} only`, `mirror ${args.action}`);
    if (args.action === 'follow') return await runFollow(args, ctx, path);
    if (args.action === 'stats') {
      const s = await runMirrorStats(path);
      ctx.stdout.write(
        args.json ? `${stringifyJson({ ...s, growth: computeMirrorGrowth(s) })}\n` : formatMirrorStatsText(s),
      );
      return EXIT_OK;
    }
    if (args['keep-raw'] === undefined)
      failOptionText('keep-raw', 'a duration like 7d for mirror prune', 'nothing');
    const keepRawMs = parseDurationOption('keep-raw', args['keep-raw'], RETENTION_DURATION);
    const archiveMs =
      args.archive === undefined ? undefined : parseDurationOption('archive', args.archive, ARCHIVE_DURATION);
    if (archiveMs !== undefined && isPostgresTarget(path))
      failOptionText('archive', 'an SQLite mirror', 'a PostgreSQL URL (PostgreSQL keeps every row)');
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

/** `mirror follow`, with the arguments `mirror` parsed. */
async function runFollow(args: MirrorArgs, ctx: CliContext, path: string): Promise<ExitCode> {
  if (args['ledger-api'] === undefined) failOptionText('ledger-api', 'a URL for mirror follow', 'nothing');
  const ledger = await parseLedgerOptions(args, ctx);
  if (ledger === null) return failOptionText('ledger-api', 'a URL', 'nothing');
  const everyMs = parseIntervalOption('every', args.every);
  if (args.once && args.every !== undefined) failOptionText('every', 'without --once', 'both');
  const timeoutMs = parseTimeoutOption(args.timeout);
  const { profilePath, typeFiles, dars } = parseProofSourceOptions(args);
  const store = await openMirrorStore(path);
  try {
    const report = await runMirrorFollow({
      store,
      ledger,
      once: args.once,
      ...(everyMs === undefined ? {} : { everyMs }),
      profilePath,
      typeFiles,
      dars,
      cwd: ctx.cwd,
      timeoutMs,
      onRound: (r) =>
        ctx.stdout.write(args.json ? `${stringifyJson({ round: r }, 0)}\n` : formatFollowRoundText(r)),
    });
    ctx.stdout.write(args.json ? `${stringifyJson({ report }, 0)}\n` : formatFollowReportText(report));
    return report.outcome === 'failed'
      ? EXIT_FAILED
      : report.outcome === 'could-not-check' && args.once
        ? EXIT_COULD_NOT_CHECK
        : EXIT_OK;
  } finally {
    await store.close();
  }
}
