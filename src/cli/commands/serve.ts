/**
 * `reserve-audit serve` — runs the reference server of the exchange's public API
 * (src/server/serve.ts) until SIGINT/SIGTERM, then shuts down gracefully. The listening URL goes to
 * stderr. Options: --port, --host, --db, --contract-id-version, --seed, --traffic, --history,
 * --history-rate, --pools, --simulation, --rate-limit, --max-connections, --exchange-name, and --faults/--fault-seed
 * (the server on an internal loopback port behind the fault-injecting proxy, src/server/fault-proxy.ts,
 * which then listens on --port/--host and is the URL printed). The Canton JSON Ledger API v2 under
 * /v2 (--ledger-api, with --ledger-token-secret / --ledger-token-public-key, --ledger-token-audience,
 * --ledger-user) and --auditor-party: docs/decisions/server.md "Ledger API".
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { formatGot } from '../../errors/base.js';
import type { Logger } from '../../server/app.js';
import { startFaultProxy } from '../../server/fault-proxy.js';
import { type FaultRule, formatFaultSpec, parseFaultSpec } from '../../server/fault-spec.js';
import {
  DEFAULT_LEDGER_AUDIENCE,
  type LedgerAuthOptions,
  parseLedgerPublicKey,
} from '../../server/ledger-api/auth.js';
import { type RunningServer, startServer } from '../../server/serve.js';
import { createSeededRng } from '../../sim/rng.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import {
  LEDGER_SECRET_ENV,
  parseLedgerSecret,
  parseLedgerUsers,
  parsePartyOption,
} from '../ledger-token-options.js';
import {
  contractIdVersionOption,
  failOption,
  failOptionText,
  HISTORY_DURATION,
  parseDurationOption,
  parseIntegerOption,
  parseNumberOption,
  parsePathOption,
  parsePositiveNumberOption,
} from '../options.js';
import { createProgress } from '../render/progress.js';
import { COMMAND_CATALOG } from './catalog.js';

/** --exchange-name: 1–64 letters, digits, `.`, `_`, `-`, not `external` (a UsageError otherwise). */
function parseExchangeNameOption(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !/^[A-Za-z0-9._-]{1,64}$/.test(value) ||
    value.toLowerCase() === 'external'
  )
    failOption('exchange-name', '1-64 letters, digits, ".", "_" or "-" (not "external")', value);
  return value;
}

/**
 * --faults: the fault proxy on the public port in front of `server`; the result is `server` as a
 * client sees it (the proxy's URL and port) and closes both, proxy first.
 */
async function startFaultFront(
  server: RunningServer,
  rules: readonly FaultRule[],
  port: number,
  host: string,
  seed: string | undefined,
): Promise<RunningServer> {
  const rng = seed === undefined ? undefined : createSeededRng(seed);
  const random = rng === undefined ? Math.random : () => rng.float();
  try {
    const proxy = await startFaultProxy({ target: server.url, port, host, rules, random });
    return {
      ...server,
      url: proxy.url,
      port: Number(new URL(proxy.url).port),
      close: async () => {
        await proxy.close();
        await server.close();
      },
    };
  } catch (e) {
    await server.close();
    throw e;
  }
}

/**
 * --ledger-api and its token options → the Ledger API's verification, or undefined without
 * --ledger-api (a token option without it is a usage error, as is --ledger-api without a key).
 */
async function parseLedgerApiOptions(
  args: {
    readonly 'ledger-api': boolean;
    readonly 'ledger-token-secret': string | undefined;
    readonly 'ledger-token-public-key': string | undefined;
    readonly 'ledger-token-audience': string;
    readonly 'ledger-user': readonly string[];
  },
  env: NodeJS.ProcessEnv,
): Promise<LedgerAuthOptions | undefined> {
  const keyFile = args['ledger-token-public-key'];
  if (!args['ledger-api']) {
    for (const name of ['ledger-token-secret', 'ledger-token-public-key', 'ledger-user'] as const)
      if (name === 'ledger-user' ? args[name].length > 0 : args[name] !== undefined)
        failOptionText(name, '--ledger-api as well', 'it alone');
    return undefined;
  }
  const secret = parseLedgerSecret('ledger-token-secret', args['ledger-token-secret'], env);
  if (secret === undefined && keyFile === undefined)
    failOptionText(
      'ledger-api',
      `--ledger-token-secret (or ${LEDGER_SECRET_ENV}) or --ledger-token-public-key`,
      'neither',
    );
  let publicKey: LedgerAuthOptions['rs256PublicKey'];
  if (keyFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(parsePathOption('ledger-token-public-key', keyFile), 'utf8');
    } catch (cause) {
      failOptionText('ledger-token-public-key', 'a readable file', formatGot(keyFile), cause);
    }
    try {
      publicKey = await parseLedgerPublicKey(text);
    } catch (cause) {
      failOptionText(
        'ledger-token-public-key',
        'an RS256 public key (PEM or JWK)',
        formatGot(keyFile),
        cause,
      );
    }
  }
  const audience = args['ledger-token-audience'];
  if (audience.trim() === '') failOptionText('ledger-token-audience', 'an audience', '""');
  return {
    audience,
    ...(secret === undefined ? {} : { hs256Secret: secret }),
    ...(publicKey === undefined ? {} : { rs256PublicKey: publicKey }),
    users: parseLedgerUsers(args['ledger-user']),
  };
}

export const serveCommand = defineCommand({
  ...COMMAND_CATALOG.serve,
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 8080, describe: 'TCP port (0 = any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind' })
      .option('db', {
        type: 'string',
        default: './.reserve-audit/server.db',
        describe: 'SQLite ledger file (created with its folder; a restart keeps the ledger), or :memory:',
      })
      .option('contract-id-version', contractIdVersionOption)
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
      .option('rate-limit', {
        type: 'number',
        describe: 'per-client requests and websocket frames per second (off by default)',
      })
      .option('max-connections', {
        type: 'number',
        default: 64,
        describe: 'open connections per client address, websockets included',
      })
      .option('exchange-name', {
        type: 'string',
        default: 'service',
        describe: 'the "source" of the service\'s own markets in /markets/info (cantex = as live)',
      })
      .option('faults', {
        type: 'string',
        describe: 'inject transport faults in front of the server, e.g. 429:0.25,503:0.15,reset:0.10',
      })
      .option('fault-seed', {
        type: 'string',
        describe: 'seed for reproducible fault draws (with --faults)',
      })
      .option('ledger-api', {
        type: 'boolean',
        default: false,
        describe: 'serve the Canton JSON Ledger API v2 of the simulated ledger under /v2 (needs a token key)',
      })
      .option('ledger-token-secret', {
        type: 'string',
        describe: `HS256 key of the Ledger API's bearer tokens, ≥ 32 bytes (or ${LEDGER_SECRET_ENV})`,
      })
      .option('ledger-token-public-key', {
        type: 'string',
        describe: "RS256 public key file of the Ledger API's bearer tokens (PEM or JWK)",
      })
      .option('ledger-token-audience', {
        type: 'string',
        default: DEFAULT_LEDGER_AUDIENCE,
        describe: "the Ledger API tokens' expected aud",
      })
      .option('ledger-user', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'a Ledger API user and the parties it reads as: NAME=PARTY[,PARTY] (repeatable)',
      })
      .option('auditor-party', {
        type: 'string',
        describe: 'make this party an observer of every reserve contract minted from now on',
      }),
  stopsGracefully: true,
  run: async (args, ctx, stop) => {
    const port = parseIntegerOption('port', args.port, { min: 0, max: 65_535 });
    const traffic = parseNumberOption('traffic', args.traffic, {
      min: 0,
      max: 60_000,
      unit: 'swaps per minute',
    });
    const historyMs = parseDurationOption('history', args.history, HISTORY_DURATION);
    const historyRate = parsePositiveNumberOption('history-rate', args['history-rate'], 600);
    const pools =
      args.pools === undefined ? undefined : parseIntegerOption('pools', args.pools, { min: 0, max: 10_000 });
    const rate =
      args['rate-limit'] === undefined
        ? undefined
        : parsePositiveNumberOption('rate-limit', args['rate-limit']);
    const maxConnections = parseIntegerOption('max-connections', args['max-connections'], {
      min: 1,
      max: 1_000_000,
    });
    const db = parsePathOption('db', args.db);
    const exchangeName = parseExchangeNameOption(args['exchange-name']);
    const faults = args.faults === undefined ? undefined : parseFaultSpec(args.faults);
    if (args['fault-seed'] !== undefined && faults === undefined)
      failOptionText('fault-seed', '--faults as well', `${formatGot(args['fault-seed'])} alone`);
    const prefill = createProgress(ctx.stderr, ctx.env);
    const ledgerAuth = await parseLedgerApiOptions(args, ctx.env);
    const auditorParty =
      args['auditor-party'] === undefined
        ? undefined
        : parsePartyOption('auditor-party', args['auditor-party']);
    const logger: Logger = {
      info: (m) => ctx.stderr.write(`reserve-audit: ${m}\n`),
      error: (m, e) =>
        ctx.stderr.write(`reserve-audit: ${m}${e instanceof Error ? `: ${e.stack ?? e.message}` : ''}\n`),
    };
    // --pools seeds a fresh ledger only: say so instead of ignoring it silently
    if (pools !== undefined && db !== ':memory:' && existsSync(db) && statSync(db).size > 0)
      ctx.stderr.write(
        `reserve-audit: --pools ${pools} ignored: ${db} already holds a ledger (--pools seeds a fresh database; pass another --db or remove the file)\n`,
      );
    const server = await startServer({
      // with --faults the server listens on an internal loopback port, the proxy on --port/--host
      port: faults === undefined ? port : 0,
      host: faults === undefined ? args.host : '127.0.0.1',
      db,
      contractIdVersion: args['contract-id-version'],
      ...(args.seed === undefined ? {} : { seed: args.seed }),
      trafficPerMinute: traffic,
      historyMs,
      historyPerMinute: historyRate,
      // counts on a terminal, nothing on a pipe (the lasting "prefilled history" line says the total)
      onPrefillProgress: (done, total) => {
        if (done < total) prefill.update(`reserve-audit: prefilling history: ${done} of ${total} swaps`);
        else prefill.clear();
      },
      ...(pools === undefined ? {} : { extraPools: pools }),
      simulation: args.simulation,
      exchangeName,
      ...(rate === undefined ? {} : { rateLimitPerSecond: rate }),
      // behind the fault gateway every client comes from the gateway's one address: no cap there
      connections: { maxPerClient: faults === undefined ? maxConnections : 1_000_000 },
      ...(ledgerAuth === undefined ? {} : { ledgerApi: { auth: ledgerAuth } }),
      ...(auditorParty === undefined ? {} : { auditorParty }),
      logger,
    });
    const running =
      faults === undefined
        ? server
        : await startFaultFront(server, faults, port, args.host, args['fault-seed']);
    ctx.stderr.write(
      `reserve-audit: serving ${running.url}/v1/public (websocket ${running.url.replace('http', 'ws')}/v1/ws/public` +
        `${args.simulation ? `, simulation ${running.url}/v1/sim` : ''}` +
        `${ledgerAuth === undefined ? '' : `, ledger API ${running.url}/v2`})\n`,
    );
    if (auditorParty !== undefined)
      ctx.stderr.write(`reserve-audit: new reserve contracts have the observer ${auditorParty}\n`);
    if (faults !== undefined)
      ctx.stderr.write(
        `reserve-audit: injecting faults ${formatFaultSpec(faults)}` +
          `${args['fault-seed'] === undefined ? '' : ` (seed ${JSON.stringify(args['fault-seed'])})`}` +
          ` in front of the server at ${server.url}\n`,
      );
    // claimed since the command started: a signal during the (synchronous) history prefill is
    // answered here, as soon as the server is up, with the same graceful stop and exit 0
    ctx.stderr.write(`reserve-audit: ${await stop}, shutting down\n`);
    await running.close();
    ctx.stderr.write('reserve-audit: stopped\n');
    return EXIT_OK;
  },
});
