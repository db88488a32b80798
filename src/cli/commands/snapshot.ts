/**
 * `reserve-audit snapshot --base-url <url> --mirror <file> [--every <duration>] [--count <n>]
 * [--timeout <ms>] [--types <file>]... [--dar <file>]... [--probe-quotes]`
 *
 * Fetches the exchange's public API (src/io/http fetchSnapshot), verifies each new reserve
 * contract (spec/contract-id.md §9), and records everything into the mirror in one transaction per
 * snapshot (src/io/store). stdout = data: one JSON line per snapshot; stderr = progress (a line
 * rewritten in place on a TTY, plain lines otherwise; NO_COLOR honoured).
 * Exit 0 = every snapshot recorded completely; 2 = could not check (network, a failed endpoint,
 * an unusable mirror).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argv } from 'yargs';
import type { TypeEnv } from '../../core/types/type-env.js';
import { computeFailedSections, formatApiTimestamp } from '../../core/wire/index.js';
import { isReserveAuditError } from '../../errors/base.js';
import { fetchSnapshot } from '../../io/http/index.js';
import { sha256Node } from '../../io/node-sha256.js';
import { openMirror, recordSnapshot, verifySnapshotContracts } from '../../io/store/index.js';
import type { CliCommand, CliContext } from '../command.js';
import { EXIT_COULD_NOT_CHECK, EXIT_OK, reportError } from '../exit-codes.js';
import { loadTypesForCli } from './verify-contract.js';

/** The reference server's reserve-template types, used when no --types/--dar is given. */
export const BUNDLED_TYPES_PATH = new URL('../../../fixtures/types/amm-pools.json', import.meta.url);

/** Parses "500ms", "30s", "5m", "1h" or a plain number of seconds into milliseconds; null if invalid. */
export function parseDurationMs(text: string): number | null {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (m === null) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  const ms = Math.round(n * factor);
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

function stringList(x: unknown): string[] {
  if (x === undefined) return [];
  return (Array.isArray(x) ? x : [x]).map(String);
}

interface Progress {
  update(text: string): void;
  line(text: string): void;
  clear(): void;
}

function createProgress(ctx: CliContext): Progress {
  const tty = (ctx.stderr as { isTTY?: boolean }).isTTY === true;
  const color = tty && (ctx.env.NO_COLOR === undefined || ctx.env.NO_COLOR === '');
  let dirty = false;
  return {
    update(text) {
      if (!tty) return;
      ctx.stderr.write(`\r\x1b[2K${color ? `\x1b[2m${text}\x1b[22m` : text}`);
      dirty = true;
    },
    line(text) {
      this.clear();
      ctx.stderr.write(`${text}\n`);
    },
    clear() {
      if (dirty) ctx.stderr.write('\r\x1b[2K');
      dirty = false;
    },
  };
}

export const snapshotCommand: CliCommand = {
  command: 'snapshot',
  describe: 'record snapshots of an exchange API into the local mirror (verifying new reserve contracts)',
  builder: (y: Argv) =>
    y
      .option('base-url', {
        type: 'string',
        demandOption: true,
        describe: 'API base URL, e.g. http://127.0.0.1:8080/v1/public',
      })
      .option('mirror', {
        type: 'string',
        demandOption: true,
        describe: 'SQLite mirror file (created if missing)',
      })
      .option('every', {
        type: 'string',
        describe: 'watch mode: take a snapshot every <duration> (500ms, 30s, 5m, 1h)',
      })
      .option('count', {
        type: 'number',
        describe: 'number of snapshots (default 1; unlimited with --every)',
      })
      .option('timeout', { type: 'number', default: 15_000, describe: 'per-request timeout in ms' })
      .option('types', {
        type: 'string',
        array: true,
        describe: 'Daml type file for V12 contract IDs (repeatable)',
      })
      .option('dar', { type: 'string', array: true, describe: 'DAR with the reserve template (repeatable)' })
      .option('probe-quotes', {
        type: 'boolean',
        default: false,
        describe: 'also send probe POST /connect/quote requests',
      }),
  run: async (args, ctx) => {
    const baseUrl = String(args['base-url']);
    const mirrorPath = String(args.mirror);
    const timeoutMs = Number(args.timeout);
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
      ctx.stderr.write(
        `reserve-audit: "--timeout" expected a positive integer of ms, got ${String(args.timeout)}\n`,
      );
      return EXIT_COULD_NOT_CHECK;
    }
    let everyMs: number | null = null;
    if (args.every !== undefined) {
      everyMs = parseDurationMs(String(args.every));
      if (everyMs === null) {
        ctx.stderr.write(
          `reserve-audit: "--every" expected a duration like 30s or 5m, got ${JSON.stringify(args.every)}\n`,
        );
        return EXIT_COULD_NOT_CHECK;
      }
    }
    const countArg = args.count === undefined ? null : Number(args.count);
    if (countArg !== null && (!Number.isSafeInteger(countArg) || countArg <= 0)) {
      ctx.stderr.write(`reserve-audit: "--count" expected a positive integer, got ${String(args.count)}\n`);
      return EXIT_COULD_NOT_CHECK;
    }
    const count = countArg ?? (everyMs === null ? 1 : Number.POSITIVE_INFINITY);
    const typeFiles = stringList(args.types);
    const dars = stringList(args.dar);

    let types: TypeEnv | undefined;
    let mirror: ReturnType<typeof openMirror>;
    try {
      types = await loadTypesForCli(
        typeFiles.length === 0 && dars.length === 0
          ? { typeFiles: [fileURLToPath(BUNDLED_TYPES_PATH)], dars: [] }
          : { typeFiles, dars },
        ctx,
      );
      mirror = openMirror(resolve(ctx.cwd, mirrorPath));
    } catch (e) {
      return reportError(e, ctx.stderr);
    }
    const progress = createProgress(ctx);
    let exit = EXIT_OK;
    try {
      for (let i = 1; i <= count; i++) {
        const started = Date.now();
        const label = Number.isFinite(count) ? `snapshot ${i}/${count}` : `snapshot ${i}`;
        try {
          const snap = await fetchSnapshot({
            baseUrl,
            timeoutMs,
            probeQuotes: args['probe-quotes'] === true,
            clientOptions: { env: ctx.env },
            onProgress: (p) => progress.update(`${label}: ${p.step} (${p.done} requests)`),
          });
          progress.update(`${label}: verifying contracts`);
          const verifications = verifySnapshotContracts(mirror, snap, { types, sha256: sha256Node });
          const rec = recordSnapshot(mirror, snap, verifications);
          const statuses = rec.newContracts.map((c) => verifications.get(c)?.status ?? 'unchecked');
          const tally = (s: string): number => statuses.filter((x) => x === s).length;
          const failed = computeFailedSections(snap);
          ctx.stdout.write(
            `${JSON.stringify({
              snapshot: rec.snapshotId,
              startedAt: formatApiTimestamp(snap.startedAtMs),
              pools: rec.pools,
              newContracts: rec.newContracts.length,
              verified: tally('verified'),
              mismatch: tally('mismatch'),
              couldNotCheck: tally('could-not-check'),
              requests: snap.raw.length,
              failedSections: failed,
            })}\n`,
          );
          const secs = ((Date.now() - started) / 1000).toFixed(1);
          progress.line(
            `${label}: #${rec.snapshotId}, ${rec.pools} pools, ${rec.newContracts.length} new contracts ` +
              `(${tally('verified')} verified, ${tally('mismatch')} mismatch, ${tally('could-not-check')} could not check), ` +
              `${snap.raw.length} requests in ${secs} s`,
          );
          for (const k of failed) {
            const v = snap[k];
            if (v !== null && !v.ok) progress.line(`${label}: could not fetch ${k}: ${v.code}: ${v.reason}`);
          }
          if (failed.length > 0) exit = EXIT_COULD_NOT_CHECK;
        } catch (e) {
          // a broken mirror or an internal error ends the run; a network failure only this snapshot
          if (!isReserveAuditError(e) || e.code.startsWith('STORE_')) {
            progress.clear();
            return reportError(e, ctx.stderr);
          }
          exit = EXIT_COULD_NOT_CHECK;
          progress.line(`${label}: could not check: ${e.message}`);
        }
        if (i < count && everyMs !== null) {
          const wait = Math.max(0, started + everyMs - Date.now());
          progress.update(`${label} done; next in ${(wait / 1000).toFixed(1)} s`);
          await new Promise<void>((res) => setTimeout(res, wait));
        }
      }
    } finally {
      mirror.close();
    }
    return exit;
  },
};
