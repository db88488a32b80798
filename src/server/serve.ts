/**
 * The composition root of the reference server and the one place it binds a port: the only server
 * module that constructs the simulated ledger (the routes and the websocket see sim/exchange.ts).
 * Opens the SQLite ledger (createExchange over openServerDb), optionally prefills history
 * and starts the demo traffic generator, builds the app (createApp), listens, and on `close()`
 * shuts down gracefully: traffic stopped, websockets closed, in-flight requests drained, db closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import { systemClock } from '../sim/clock.js';
import { createExchange } from '../sim/ledger.js';
import { createCryptoRng, createSeededRng } from '../sim/rng.js';
import { loadSeedMarket } from '../sim/seed-market.js';
import type { SimulatedExchange } from '../sim/simulated-exchange.js';
import { openServerDb } from '../sim/store/connection.js';
import { startTraffic, type TrafficHandle } from '../sim/traffic.js';
import { type App, createApp } from './app.js';
import type { ConnectionLimitOptions } from './connection-guard.js';
import type { Logger } from './deps.js';
import type { LedgerAuthOptions } from './ledger-api/auth.js';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** SQLite file or ':memory:' */
  readonly db: string;
  readonly contractIdVersion: ContractIdVersion;
  /** deterministic randomness (contract salts, traffic) when set */
  readonly seed?: string;
  /** demo swaps per minute (0/undefined = none) */
  readonly trafficPerMinute?: number;
  /** prefill this much history (ms) at startup */
  readonly historyMs?: number;
  /** swaps per minute used to prefill history */
  readonly historyPerMinute?: number;
  /** generated pools added to the seed market (fresh database only) */
  readonly extraPools?: number;
  /** mount the simulation interface under /v1/sim */
  readonly simulation: boolean;
  /** `source` of the service's own markets (docs/protocol/api-decisions.md §10); default `service` */
  readonly exchangeName?: string;
  /** per-client requests per second (token bucket), off when undefined */
  readonly rateLimitPerSecond?: number;
  /** per-client connection cap and pipelining limits (default: 64 connections per address) */
  readonly connections?: ConnectionLimitOptions;
  /** ms a client has to send a request's headers (default 15 000) */
  readonly headersTimeoutMs?: number;
  /** ms a client has to send a whole request, body included (default 30 000) */
  readonly requestTimeoutMs?: number;
  /** serve the Canton JSON Ledger API v2 under /v2 with this token verification (off when absent) */
  readonly ledgerApi?: { readonly auth: LedgerAuthOptions };
  /** a party the reference template makes an observer of every reserve contract minted from now on */
  readonly auditorParty?: string;
  readonly logger: Logger;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly exchange: SimulatedExchange;
  readonly app: App;
  readonly server: Server;
  close(): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const db = openServerDb(o.db);
  let traffic: TrafficHandle | undefined;
  try {
    const rng = o.seed === undefined ? createCryptoRng() : createSeededRng(o.seed);
    const exchange = createExchange({
      db,
      clock: systemClock,
      rng,
      contractIdVersion: o.contractIdVersion,
      seedMarket: loadSeedMarket(),
      ...(o.extraPools === undefined ? {} : { extraPools: o.extraPools }),
      ...(o.auditorParty === undefined ? {} : { auditorParty: o.auditorParty }),
    });
    if (o.historyMs !== undefined && o.historyMs > 0) {
      const r = exchange.prefillHistory({ duration: o.historyMs, swapsPerMinute: o.historyPerMinute ?? 1 });
      o.logger.info(`prefilled history: ${r.executed} swaps executed, ${r.refunded} refunded`);
    }
    const app = createApp({
      exchange,
      simulation: exchange,
      enableSimulation: o.simulation,
      logger: o.logger,
      ...(o.exchangeName === undefined ? {} : { exchangeName: o.exchangeName }),
      ...(o.rateLimitPerSecond === undefined ? {} : { rateLimit: { perSecond: o.rateLimitPerSecond } }),
      ...(o.connections === undefined ? {} : { connections: o.connections }),
      ...(o.ledgerApi === undefined ? {} : { ledgerApi: { ledger: exchange, auth: o.ledgerApi.auth } }),
    });
    // bounded request times: a client trickling headers or a body cannot hold a socket for long.
    // Node checks these timeouts every `connectionsCheckingInterval` (30 s by default, which made
    // 15 s / 30 s fire at 32–35 s): checked every second, they fire within a second of the limit.
    const requestTimeout = o.requestTimeoutMs ?? 30_000;
    const server = createServer(
      {
        keepAliveTimeout: 5_000,
        headersTimeout: Math.min(o.headersTimeoutMs ?? 15_000, requestTimeout),
        requestTimeout,
        connectionsCheckingInterval: Math.min(1_000, requestTimeout),
        // answered by the app in JSON (400 missing Host header), not by node's empty 400
        requireHostHeader: false,
      },
      app.handler,
    );
    app.attach(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const hostPart = o.host.includes(':') ? `[${o.host}]` : o.host;
    if (o.trafficPerMinute !== undefined && o.trafficPerMinute > 0) {
      traffic = startTraffic({ swapsPerMinute: o.trafficPerMinute, rng, exchange });
    }
    let closing: Promise<void> | undefined;
    return {
      url: `http://${hostPart}:${port}`,
      port,
      exchange,
      app,
      server,
      close(): Promise<void> {
        closing ??= (async () => {
          traffic?.stop();
          await app.close();
          await new Promise<void>((resolve) => {
            const force = setTimeout(() => server.closeAllConnections(), 5_000);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              resolve();
            });
            server.closeIdleConnections();
          });
          db.close();
        })();
        return closing;
      },
    };
  } catch (e) {
    traffic?.stop();
    db.close();
    throw e;
  }
}
