/**
 * `reserve-audit snapshot --base-url <url> --mirror <file|postgres://…> [--every <duration>] [--count <n>]
 * [--timeout <ms>] [--types <file>]... [--dar <file>]... [--probe-quotes]
 * [--keep-raw 7d] [--archive-after 30d] [--no-retention]`
 *
 * Runs the snapshot pipeline (src/run/snapshot.ts: fetch, verify each new reserve contract with
 * the one proof step, record into the mirror in one transaction per snapshot) per snapshot; with
 * `--every`, the retention policy (applyRetention, src/run/mirror.ts) at start and then hourly (a bounded mirror by default). stdout = data: one JSON line per snapshot; stderr = progress (a line
 * rewritten in place on a TTY, plain lines otherwise; NO_COLOR honoured).
 * With `--ledger-api`, one `mirror follow` round (src/run/mirror-follow.ts) into the same mirror after
 * each snapshot. Exit 0 = every snapshot recorded completely; 1 = a reserve chain error of the followed
 * ledger; 2 = could not check (network, a failed endpoint, an unusable mirror, a participant that could
 * not answer).
 */
import { isReserveAuditError } from '../../errors/base.js';
import { UsageError } from '../../errors/usage.js';
import { loadTypesOrDefault } from '../../io/files/default-types.js';
import { openMirrorStore } from '../../io/store/index.js';
import { applyRetention, isRetentionDue } from '../../run/mirror.js';
import { runMirrorFollow } from '../../run/mirror-follow.js';
import { takeSnapshot } from '../../run/snapshot.js';
import { defineCommand } from '../command.js';
import { exitCodeOfSnapshots } from '../exit-codes.js';
import {
  ledgerApiOption,
  ledgerPartyOption,
  ledgerTokenFileOption,
  parseLedgerOptions,
} from '../ledger-options.js';
import {
  assertRemoteIntervals,
  baseUrlOption,
  parseBaseUrlOption,
  parseIntegerOption,
  parseIntervalOption,
  parseMirrorOption,
  parseRetentionOptions,
  parseSnapshotFetchOptions,
  parseTypeSourceOptions,
  recordingMirrorOption,
  retentionOptions,
  snapshotFetchOptions,
  typeSourceOptions,
} from '../options.js';
import { formatFollowRoundText } from '../render/mirror.js';
import { createProgress } from '../render/progress.js';
import {
  formatFailedSections,
  formatRetentionLine,
  formatSnapshotJsonLine,
  formatSnapshotSummary,
} from '../render/snapshot.js';
import { COMMAND_CATALOG } from './catalog.js';

export const snapshotCommand = defineCommand({
  ...COMMAND_CATALOG.snapshot,
  builder: (y) =>
    y
      .option('base-url', baseUrlOption)
      .option('mirror', recordingMirrorOption)
      .option('every', {
        type: 'string',
        describe: 'watch mode: take a snapshot every <duration> (500ms, 30s, 5m, 1h)',
      })
      .option('count', {
        type: 'number',
        describe: 'number of snapshots (default 1; unlimited with --every)',
      })
      .options(snapshotFetchOptions)
      .options(typeSourceOptions)
      .option('ledger-api', {
        ...ledgerApiOption,
        describe:
          "after each snapshot, follow the reserve contracts' created/archived events of a Canton participant's JSON Ledger API v2 at this URL into the mirror (one mirror follow round) and check each pool's chain",
      })
      .option('ledger-token-file', ledgerTokenFileOption)
      .option('ledger-party', ledgerPartyOption)
      .options(retentionOptions),
  run: async (args, ctx) => {
    const baseUrl = parseBaseUrlOption(args['base-url']);
    const mirrorPath = parseMirrorOption(args.mirror, ctx);
    const { timeoutMs, pacing } = parseSnapshotFetchOptions(args);
    const everyMs = parseIntervalOption('every', args.every) ?? null;
    if (args.every !== undefined && everyMs !== null)
      assertRemoteIntervals(baseUrl, [{ name: 'every', ms: everyMs, text: args.every }]);
    const countArg = args.count === undefined ? null : parseIntegerOption('count', args.count, { min: 1 });
    const count = countArg ?? (everyMs === null ? 1 : Number.POSITIVE_INFINITY);
    const { typeFiles, dars } = parseTypeSourceOptions(args);
    // a bounded mirror by default when snapshots repeat (docs/mirror.md "Retention")
    const retention = everyMs === null ? null : parseRetentionOptions(args, mirrorPath);
    if (everyMs === null && (args['keep-raw'] !== undefined || args['archive-after'] !== undefined))
      throw new UsageError(
        'OPTION_INVALID',
        '"--keep-raw" and "--archive-after" expected with --every (one snapshot applies no retention; see mirror prune), got neither',
      );
    let retainedAtMs: number | null = null;
    const ledger = await parseLedgerOptions(args, ctx);
    let chainError = false;

    const types = await loadTypesOrDefault({ typeFiles, dars, cwd: ctx.cwd });
    const mirror = await openMirrorStore(mirrorPath);
    const progress = createProgress(ctx.stderr, ctx.env);
    let allComplete = true;
    try {
      for (let i = 1; i <= count; i++) {
        const started = Date.now();
        const label = Number.isFinite(count) ? `snapshot ${i}/${count}` : `snapshot ${i}`;
        try {
          const rec = await takeSnapshot({
            mirror,
            baseUrl,
            timeoutMs,
            ...pacing,
            probeQuotes: args['probe-quotes'],
            types,
            env: ctx.env,
            onProgress: (p) =>
              progress.update(
                'done' in p ? `${label}: ${p.step} (${p.done} requests)` : `${label}: ${p.step}`,
              ),
          });
          ctx.stdout.write(formatSnapshotJsonLine(rec));
          progress.line(formatSnapshotSummary(label, rec, Date.now() - started));
          for (const l of formatFailedSections(label, rec)) progress.line(l);
          if (rec.failedSections.length > 0 || rec.failedAttempt !== null) allComplete = false;
        } catch (e) {
          // a broken mirror or an internal error ends the run; a network failure only this snapshot
          if (!isReserveAuditError(e) || e.code.startsWith('STORE_')) {
            progress.clear();
            throw e;
          }
          allComplete = false;
          progress.line(`${label}: could not check: ${e.message}`);
        }
        // --ledger-api: one follow round into the same mirror, the chains of the pools it touched checked
        if (ledger !== null) {
          const f = await runMirrorFollow({
            store: mirror,
            ledger,
            once: true,
            typeFiles,
            dars,
            cwd: ctx.cwd,
            timeoutMs,
            onRound: (r) => {
              for (const l of formatFollowRoundText(r).trimEnd().split('\n')) progress.line(`${label}: ${l}`);
            },
          });
          if (f.outcome === 'failed') chainError = true;
          else if (f.outcome === 'could-not-check') allComplete = false;
        }
        // the retention policy: at start, then hourly, whether or not this snapshot succeeded
        if (retention !== null && isRetentionDue(retainedAtMs, Date.now())) {
          retainedAtMs = Date.now();
          const line = formatRetentionLine(label, await applyRetention(mirror, retention, retainedAtMs));
          if (line !== null) progress.line(line);
        }
        if (i < count && everyMs !== null) {
          const wait = Math.max(0, started + everyMs - Date.now());
          progress.update(`${label} done; next in ${(wait / 1000).toFixed(1)} s`);
          await new Promise<void>((res) => setTimeout(res, wait));
        }
      }
    } finally {
      await mirror.close();
    }
    return exitCodeOfSnapshots(allComplete, chainError);
  },
});
