/**
 * The bundled reference server behind a tampering proxy (audit tests). `startAuditServer` runs the
 * real simulated ledger (createExchange on SQLite :memory:, chosen contract-ID version) with
 * createApp on 127.0.0.1:0, and in front of it a proxy on 127.0.0.1:0 that forwards every request
 * and lets a test rewrite the response (JSON body, status, raw bytes) or inject faults (delay,
 * dropped connection, truncated body, oversized body).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { createApp } from '../../src/server/app.js';
import { createManualClock, type ManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';

export const T0 = Date.UTC(2026, 10, 22, 3, 0, 0);

interface TamperContext {
  readonly method: string;
  /** path below /v1/public, e.g. "/pools/proof" (no query) */
  readonly path: string;
  readonly query: string;
  readonly status: number;
  /** the parsed JSON body (undefined when not JSON); mutate freely and return it as `json` */
  readonly json: unknown;
  readonly text: string;
}

export interface TamperAction {
  readonly status?: number;
  /** replacement JSON body */
  readonly json?: unknown;
  /** replacement raw body */
  readonly raw?: string | Uint8Array;
  /** wait before answering */
  readonly delayMs?: number;
  /** close the socket without an answer */
  readonly destroy?: boolean;
  /** announce the full length but send only half of the body, then close */
  readonly truncate?: boolean;
}

export type Tamper = (ctx: TamperContext) => TamperAction | undefined;

export interface AuditServer {
  readonly ex: SimulatedExchange;
  readonly clock: ManualClock;
  /** the proxy's base URL (origin + /v1/public) */
  readonly base: string;
  /** the untampered server's base URL */
  readonly directBase: string;
  /** the untampered server's origin, where it serves the Ledger API (with `ledger`) */
  readonly ledgerUrl: string;
  /** replaces the tamper function (undefined = pass through) */
  setTamper(t: Tamper | undefined): void;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the reference server (+ tampering proxy). */
export async function startAuditServer(
  o: {
    version?: ContractIdVersion;
    extraPools?: number;
    seed?: string;
    tamper?: Tamper;
    /** `source` of the service's own markets (serve --exchange-name) */
    exchangeName?: string;
    /** serve the Ledger API too (on the untampered server's origin), HS256 tokens, this auditor party an observer */
    ledger?: { readonly secret: Uint8Array; readonly auditorParty: string };
  } = {},
): Promise<AuditServer> {
  const db = openServerDb(':memory:');
  const clock = createManualClock(T0);
  const ex = createExchange({
    db,
    clock,
    rng: createSeededRng(o.seed ?? `audit-${o.version ?? 'v12'}`),
    contractIdVersion: o.version ?? 'v12',
    seedMarket: loadSeedMarket(),
    extraPools: o.extraPools ?? 0,
    ...(o.ledger === undefined ? {} : { auditorParty: o.ledger.auditorParty }),
  });
  const app = createApp({
    exchange: ex,
    simulation: ex,
    clock,
    logger: { info: () => {}, error: () => {} },
    ...(o.exchangeName === undefined ? {} : { exchangeName: o.exchangeName }),
    ...(o.ledger === undefined ? {} : { ledgerApi: { ledger: ex, auth: { hs256Secret: o.ledger.secret } } }),
  });
  const inner = createServer(app.handler);
  const innerOrigin = await listen(inner);
  let tamper = o.tamper;
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const url = req.url ?? '/';
      const r = await fetch(innerOrigin + url, {
        method: req.method ?? 'GET',
        headers: { 'content-type': 'application/json' },
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await r.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const [p, q] = url.split('?');
      const path = (p ?? '').replace(/^\/v1\/public/, '');
      const a =
        tamper?.({ method: req.method ?? 'GET', path, query: q ?? '', status: r.status, json, text }) ?? {};
      if (a.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, a.delayMs));
      if (a.destroy === true) {
        req.socket.destroy();
        return;
      }
      const out =
        a.raw !== undefined
          ? Buffer.from(a.raw)
          : a.json !== undefined
            ? Buffer.from(JSON.stringify(a.json))
            : Buffer.from(text);
      res.writeHead(a.status ?? r.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(out.length),
      });
      if (a.truncate === true) {
        res.write(out.subarray(0, Math.floor(out.length / 2)));
        setTimeout(() => req.socket.destroy(), 5);
        return;
      }
      res.end(out);
    })().catch(() => req.socket.destroy());
  });
  const proxyOrigin = await listen(proxy);
  const close = async (s: Server): Promise<void> => {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    ex,
    clock,
    base: `${proxyOrigin}/v1/public`,
    directBase: `${innerOrigin}/v1/public`,
    ledgerUrl: innerOrigin,
    setTamper(t) {
      tamper = t;
    },
    async close() {
      await close(proxy);
      await app.close();
      await close(inner);
      db.close();
    },
  };
}
