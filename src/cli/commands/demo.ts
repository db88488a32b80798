/**
 * `reserve-audit demo` — the main job behind `npm start`: the bundled reference server on a
 * temporary SQLite ledger with a pre-filled simulated history (in-process, 127.0.0.1, any free
 * port), a few snapshots into the mirror (default ./.reserve-audit/mirror.db, started fresh because
 * the demo ledger is new on every run), each followed by one `mirror follow` round of the server's
 * JSON Ledger API (every reserve contract of the ledger into the mirror), swaps between them, then a
 * full audit with probe quotes against the mirror, each proof confirmed through that Ledger API as an
 * auditor party that observes the reserve contracts (`--ledger-api`), printed as the auditor would see
 * it. Exit code = the audit's (0/1/2).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from '../../errors/usage.js';
import { loadTypesOrDefault } from '../../io/files/default-types.js';
import { isPostgresTarget, type MirrorStore, openMirrorStore } from '../../io/store/index.js';
import { runAudit } from '../../run/audit.js';
import { runMirrorFollow } from '../../run/mirror-follow.js';
import { takeSnapshot } from '../../run/snapshot.js';
import { formatLedgerToken } from '../../server/ledger-api/auth.js';
import { startServer } from '../../server/serve.js';
import { simulateRandomSwap } from '../../sim/traffic.js';
import { defineCommand } from '../command.js';
import { exitCodeOf } from '../exit-codes.js';
import {
  contractIdVersionOption,
  jsonOption,
  parseIntegerOption,
  parseNumberOption,
  resolvePathOption,
} from '../options.js';
import { formatAuditText } from '../render/audit-text.js';
import { createStyle } from '../render/style.js';
import { onInterrupt } from '../signals.js';
import { COMMAND_CATALOG } from './catalog.js';

const HOUR_MS = 3_600_000;
/** the demo's auditor: an observer of every reserve contract of the demo ledger */
const DEMO_AUDITOR_PARTY = 'demo-auditor::1220d0';

export const demoCommand = defineCommand({
  ...COMMAND_CATALOG.demo,
  builder: (y) =>
    y
      .option('mirror', {
        type: 'string',
        default: './.reserve-audit/mirror.db',
        describe:
          'mirror file (recreated: the demo ledger is new on every run), or an empty PostgreSQL database (postgres:// URL)',
      })
      .option('contract-id-version', contractIdVersionOption)
      .option('history-hours', { type: 'number', default: 24, describe: 'simulated history to pre-fill' })
      .option('snapshots', { type: 'number', default: 3, describe: 'snapshots before the audit' })
      .option('json', jsonOption('print the audit as JSON')),
  run: async (args, ctx) => {
    const say = (m: string): void => {
      ctx.stderr.write(`demo: ${m}\n`);
    };
    const pg = isPostgresTarget(args.mirror);
    const mirrorPath = pg ? args.mirror.trim() : resolvePathOption('mirror', args.mirror, ctx.cwd);
    const snapshots = parseIntegerOption('snapshots', args.snapshots, { min: 1, max: 50 });
    const historyHours = parseNumberOption('history-hours', args['history-hours'], { min: 0, max: 24 * 32 });
    const tmp = mkdtempSync(join(tmpdir(), 'reserve-audit-demo-'));
    // Ctrl-C ends the demo at once (exit 130): its temporary ledger goes with it
    const forgetTmp = onInterrupt(() => rmSync(tmp, { recursive: true, force: true }));
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const t0 = Date.now();
      // the reference server also serves its ledger through the JSON Ledger API, with the demo's
      // auditor as an observer of every reserve contract: the audit confirms each proof on the ledger
      const ledgerSecret = new Uint8Array(randomBytes(32));
      server = await startServer({
        port: 0,
        host: '127.0.0.1',
        db: join(tmp, 'server.db'),
        ledgerApi: { auth: { hs256Secret: ledgerSecret } },
        auditorParty: DEMO_AUDITOR_PARTY,
        contractIdVersion: args['contract-id-version'],
        historyMs: historyHours * HOUR_MS,
        historyPerMinute: 1,
        simulation: false,
        logger: { info: (m) => say(m), error: (m) => say(`server error: ${m}`) },
      });
      const baseUrl = `${server.url}/v1/public`;
      say(`reference server on ${baseUrl} (ledger ${join(tmp, 'server.db')}, ${Date.now() - t0} ms)`);

      if (!pg) {
        for (const file of [mirrorPath, `${mirrorPath}-wal`, `${mirrorPath}-shm`])
          rmSync(file, { force: true });
        mkdirSync(dirname(mirrorPath), { recursive: true });
      }
      const types = await loadTypesOrDefault({});
      const token = await formatLedgerToken({
        secret: ledgerSecret,
        user: 'demo-auditor',
        readAs: [DEMO_AUDITOR_PARTY],
        expiresInSeconds: 3600,
        nowMs: Date.now(),
      });
      const ledger = { baseUrl: server.url, token, party: DEMO_AUDITOR_PARTY };
      const mirror: MirrorStore = await openMirrorStore(mirrorPath);
      try {
        // a shared database is never wiped: the demo's fresh ledger needs an empty one
        if (pg && (await mirror.countSnapshots()) > 0)
          throw new UsageError(
            'OPTION_INVALID',
            `"--mirror" expected an empty PostgreSQL database for the demo, got ${JSON.stringify(mirror.path)} with snapshots`,
          );
        for (let i = 1; i <= snapshots; i++) {
          if (i > 1) {
            // trade between snapshots so the mirror sees reserve contracts being replaced
            for (let k = 0; k < 5; k++) simulateRandomSwap(server.exchange, server.exchange.rng);
            // let the 5 s pool-state cache window roll over
            await new Promise((r) => setTimeout(r, 5_100));
          }
          const rec = await takeSnapshot({ mirror, baseUrl, timeoutMs: 10_000, types, env: ctx.env });
          // the ledger's every reserve contract since the last round, as `snapshot --ledger-api` does
          const follow = await runMirrorFollow({
            store: mirror,
            ledger,
            once: true,
            cwd: ctx.cwd,
            timeoutMs: 10_000,
          });
          say(
            `snapshot ${i}/${snapshots}: ${rec.pools} pools, ${rec.newContracts.length} new contracts → ${mirror.path}; ledger followed to offset ${follow.offset} (chains ${follow.outcome})`,
          );
        }
      } finally {
        await mirror.close();
      }

      say('auditing (with probe quotes, each proof confirmed through the Ledger API) …');
      const report = await runAudit({
        baseUrl,
        mirrorPath,
        probeQuotes: true,
        ledger,
        cwd: ctx.cwd,
        onProgress: (m) => say(m),
      });
      const st = createStyle(ctx.stdout, ctx.env);
      ctx.stdout.write(
        args.json ? `${JSON.stringify(report.summary, null, 2)}\n` : formatAuditText(report, st),
      );
      const code = exitCodeOf(report.summary.outcome);
      say(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s; exit ${code}`);
      return code;
    } finally {
      await server?.close();
      rmSync(tmp, { recursive: true, force: true });
      forgetTmp();
    }
  },
});
