/**
 * `reserve-audit serve` — runs the reference server of the exchange's public API
 * (src/server/serve.ts) until SIGINT/SIGTERM, then shuts down gracefully. The listening URL goes to
 * stderr. Options: --port, --host, --db, --contract-id-version, --seed, --traffic, --history,
 * --history-rate, --pools, --simulation, --rate-limit.
 */
import type { ContractIdVersion } from '../../core/hash/contract-id-version.js';
import type { Logger } from '../../server/app.js';
import { startServer } from '../../server/serve.js';
import type { CliCommand } from '../command.js';
import { EXIT_COULD_NOT_CHECK, EXIT_OK } from '../exit-codes.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "7d", "12h", "30m", "90s", "0" → ms; null when malformed or above 365 days. */
export function parseDurationMs(text: string): number | null {
  if (text === '0') return 0;
  const m = /^([0-9]{1,6})([smhd])$/.exec(text);
  if (m === null) return null;
  const ms = Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
  return Number.isSafeInteger(ms) && ms <= 365 * 86_400_000 ? ms : null;
}

function usage(ctx: { stderr: NodeJS.WritableStream }, message: string): number {
  ctx.stderr.write(`reserve-audit: ${message}\n`);
  return EXIT_COULD_NOT_CHECK;
}

export const serveCommand: CliCommand = {
  command: 'serve',
  describe: 'run the reference server of the exchange public API (HTTP + websocket) on a simulated ledger',
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 8080, describe: 'TCP port (0 = any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('db', {
        type: 'string',
        default: './.reserve-audit/server.db',
        describe: 'SQLite ledger file (created with its folder; a restart keeps the ledger), or :memory:',
      })
      .option('contract-id-version', {
        type: 'string',
        choices: ['v10', 'v11', 'v12'],
        default: 'v12',
        describe: 'contract ID version of minted reserve contracts',
      })
      .option('seed', { type: 'string', describe: 'seed for deterministic contract salts and traffic' })
      .option('traffic', { type: 'number', default: 0, describe: 'demo swaps per minute (0 = none)' })
      .option('history', {
        type: 'string',
        default: '0',
        describe: 'prefill this much swap history, e.g. 7d, 12h',
      })
      .option('history-rate', {
        type: 'number',
        default: 1,
        describe: 'swaps per minute used to prefill history',
      })
      .option('pools', { type: 'number', describe: 'extra generated pools (fresh database only)' })
      .option('simulation', {
        type: 'boolean',
        default: false,
        describe: 'mount the simulation interface under /v1/sim',
      })
      .option('rate-limit', { type: 'number', describe: 'per-client requests per second (off by default)' }),
  run: async (args, ctx) => {
    const port = args.port as number;
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      return usage(ctx, `--port expected 0..65535, got ${port}`);
    const traffic = args.traffic as number;
    if (!Number.isFinite(traffic) || traffic < 0 || traffic > 60_000) {
      return usage(ctx, `--traffic expected 0..60000 swaps per minute, got ${traffic}`);
    }
    const historyMs = parseDurationMs(String(args.history));
    if (historyMs === null)
      return usage(ctx, `--history expected a duration such as 7d, 12h, 30m, got ${String(args.history)}`);
    const historyRate = args['history-rate'] as number;
    if (!Number.isFinite(historyRate) || historyRate <= 0 || historyRate > 600) {
      return usage(ctx, `--history-rate expected a number in (0, 600], got ${historyRate}`);
    }
    const pools = args.pools as number | undefined;
    if (pools !== undefined && (!Number.isInteger(pools) || pools < 0 || pools > 10_000)) {
      return usage(ctx, `--pools expected an integer 0..10000, got ${pools}`);
    }
    const rate = args['rate-limit'] as number | undefined;
    if (rate !== undefined && (!Number.isFinite(rate) || rate <= 0)) {
      return usage(ctx, `--rate-limit expected a positive number of requests per second, got ${rate}`);
    }
    const logger: Logger = {
      info: (m) => ctx.stderr.write(`reserve-audit: ${m}\n`),
      error: (m, e) =>
        ctx.stderr.write(`reserve-audit: ${m}${e instanceof Error ? `: ${e.stack ?? e.message}` : ''}\n`),
    };
    const running = await startServer({
      port,
      host: args.host as string,
      db: args.db as string,
      contractIdVersion: args['contract-id-version'] as ContractIdVersion,
      ...(args.seed === undefined ? {} : { seed: String(args.seed) }),
      trafficPerMinute: traffic,
      historyMs,
      historyPerMinute: historyRate,
      ...(pools === undefined ? {} : { extraPools: pools }),
      simulation: args.simulation === true,
      ...(rate === undefined ? {} : { rateLimitPerSecond: rate }),
      logger,
    });
    ctx.stderr.write(
      `reserve-audit: serving ${running.url}/v1/public (websocket ${running.url.replace('http', 'ws')}/v1/ws/public` +
        `${args.simulation === true ? `, simulation ${running.url}/v1/sim` : ''})\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = (signal: string): void => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        ctx.stderr.write(`reserve-audit: ${signal}, shutting down\n`);
        resolve();
      };
      const onInt = (): void => stop('SIGINT');
      const onTerm = (): void => stop('SIGTERM');
      process.once('SIGINT', onInt);
      process.once('SIGTERM', onTerm);
    });
    await running.close();
    ctx.stderr.write('reserve-audit: stopped\n');
    return EXIT_OK;
  },
};
