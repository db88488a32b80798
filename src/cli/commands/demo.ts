/**
 * `reserve-audit demo` — the main job behind `npm start`: the bundled reference server on a
 * temporary SQLite ledger with a pre-filled simulated history (in-process, 127.0.0.1, any free
 * port), a few snapshots into the mirror (default ./.reserve-audit/mirror.db, started fresh because
 * the demo ledger is new on every run), swaps between them, then a full audit with probe quotes
 * against the mirror, printed as the auditor would see it. Exit code = the audit's (0/1/2).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractIdVersion } from '../../core/hash/contract-id-version.js';
import { createTypeEnv } from '../../core/types/index.js';
import { readTypeFiles } from '../../io/files/type-file.js';
import { fetchSnapshot } from '../../io/http/index.js';
import { sha256Node } from '../../io/node-sha256.js';
import { openMirror, recordSnapshot, verifySnapshotContracts } from '../../io/store/index.js';
import { runAudit } from '../../run/audit.js';
import { startServer } from '../../server/serve.js';
import { simulateRandomSwap } from '../../sim/traffic.js';
import type { CliCommand } from '../command.js';
import { EXIT_COULD_NOT_CHECK, reportError } from '../exit-codes.js';
import { formatAuditText } from '../render/audit-text.js';
import { createStyle } from '../render/style.js';
import { BUNDLED_TYPES_PATH } from './snapshot.js';

const HOUR_MS = 3_600_000;

export const demoCommand: CliCommand = {
  command: 'demo',
  describe: 'the main job (npm start): bundled server + pre-filled history + snapshots + a full audit',
  builder: (y) =>
    y
      .option('mirror', {
        type: 'string',
        default: './.reserve-audit/mirror.db',
        describe: 'mirror file (recreated: the demo ledger is new on every run)',
      })
      .option('contract-id-version', { type: 'string', choices: ['v10', 'v11', 'v12'], default: 'v12' })
      .option('history-hours', { type: 'number', default: 24, describe: 'simulated history to pre-fill' })
      .option('snapshots', { type: 'number', default: 3, describe: 'snapshots before the audit' })
      .option('json', { type: 'boolean', default: false, describe: 'print the audit as JSON' }),
  run: async (args, ctx) => {
    const say = (m: string): void => {
      ctx.stderr.write(`demo: ${m}\n`);
    };
    const mirrorPath = resolve(ctx.cwd, String(args.mirror));
    const snapshots = Number(args.snapshots);
    const historyHours = Number(args['history-hours']);
    if (!Number.isSafeInteger(snapshots) || snapshots < 1 || snapshots > 50) {
      ctx.stderr.write(
        `reserve-audit: "--snapshots" expected an integer 1..50, got ${String(args.snapshots)}\n`,
      );
      return EXIT_COULD_NOT_CHECK;
    }
    if (!Number.isFinite(historyHours) || historyHours < 0 || historyHours > 24 * 32) {
      ctx.stderr.write(
        `reserve-audit: "--history-hours" expected 0..768, got ${String(args['history-hours'])}\n`,
      );
      return EXIT_COULD_NOT_CHECK;
    }
    const tmp = mkdtempSync(join(tmpdir(), 'reserve-audit-demo-'));
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const t0 = Date.now();
      server = await startServer({
        port: 0,
        host: '127.0.0.1',
        db: join(tmp, 'server.db'),
        contractIdVersion: String(args['contract-id-version']) as ContractIdVersion,
        historyMs: historyHours * HOUR_MS,
        historyPerMinute: 1,
        simulation: false,
        logger: { info: (m) => say(m), error: (m) => say(`server error: ${m}`) },
      });
      const baseUrl = `${server.url}/v1/public`;
      say(`reference server on ${baseUrl} (ledger ${join(tmp, 'server.db')}, ${Date.now() - t0} ms)`);

      rmSync(mirrorPath, { force: true });
      rmSync(`${mirrorPath}-wal`, { force: true });
      rmSync(`${mirrorPath}-shm`, { force: true });
      mkdirSync(dirname(mirrorPath), { recursive: true });
      const types = createTypeEnv(await readTypeFiles([fileURLToPath(BUNDLED_TYPES_PATH)]));
      const mirror = openMirror(mirrorPath);
      try {
        for (let i = 1; i <= snapshots; i++) {
          if (i > 1) {
            // trade between snapshots so the mirror sees reserve contracts being replaced
            for (let k = 0; k < 5; k++) simulateRandomSwap(server.exchange, server.exchange.rng);
            // let the 5 s pool-state cache window roll over
            await new Promise((r) => setTimeout(r, 5_100));
          }
          const snap = await fetchSnapshot({ baseUrl, timeoutMs: 10_000, clientOptions: { env: ctx.env } });
          const verifications = verifySnapshotContracts(mirror, snap, { types, sha256: sha256Node });
          const rec = recordSnapshot(mirror, snap, verifications);
          say(
            `snapshot ${i}/${snapshots}: ${rec.pools} pools, ${rec.newContracts.length} new contracts → ${mirrorPath}`,
          );
        }
      } finally {
        mirror.close();
      }

      say('auditing (with probe quotes) …');
      const report = await runAudit({
        baseUrl,
        mirrorPath,
        probeQuotes: true,
        cwd: ctx.cwd,
        onProgress: (m) => say(m),
      });
      const st = createStyle(ctx.stdout, ctx.env);
      ctx.stdout.write(
        args.json === true ? `${JSON.stringify(report.summary, null, 2)}\n` : formatAuditText(report, st),
      );
      say(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s; exit ${report.summary.exitCode}`);
      return report.summary.exitCode;
    } catch (e) {
      return reportError(e, ctx.stderr);
    } finally {
      await server?.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
};
