/**
 * Starts the reference server (H5a's createExchange + H5b's createApp) on 127.0.0.1:0 with an
 * in-memory ledger and a manual clock, for the parser, client and snapshot tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp } from '../../src/server/app.js';
import { createManualClock, type ManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';

export interface ReferenceServer {
  readonly base: string;
  readonly exchange: SimulatedExchange;
  readonly clock: ManualClock;
  readonly app: App;
  readonly server: Server;
  close(): Promise<void>;
}

const REFERENCE_T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

export async function startReferenceServer(
  o: {
    seed?: string;
    prefillMs?: number;
    swapsPerMinute?: number;
    /** answers some requests itself (returns true) before the app sees them */
    intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
  } = {},
): Promise<ReferenceServer> {
  const db = openServerDb(':memory:');
  const clock = createManualClock(REFERENCE_T0);
  const exchange = createExchange({
    db,
    clock,
    rng: createSeededRng(o.seed ?? 'h7-seed'),
    seedMarket: loadSeedMarket(),
  });
  if (o.prefillMs !== undefined)
    exchange.prefillHistory({ duration: o.prefillMs, swapsPerMinute: o.swapsPerMinute ?? 2 });
  const app = createApp({ exchange, simulation: exchange, clock });
  const server = createServer((req, res) => {
    if (o.intercept?.(req, res) === true) return;
    app.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/v1/public`,
    exchange,
    clock,
    app,
    server,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}
