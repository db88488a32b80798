/**
 * Cached market data end to end (docs/decisions/audit.md "Cached market data"): the demo flow —
 * the bundled server, snapshots into a mirror with swaps between them, an audit right after —
 * on one manual clock shared by the server and the auditor (fetch times, Age, ledger times), so
 * cache windows are exact. An honest cached exchange exits 0 with MARKET_DATA_FROM_CACHE; a
 * tampered ticker / order book / /stats TVL with contracts older than the cache window exits 1;
 * a tampered ticker while the pool changed within the window is MARKET_DATA_STALE_UNVERIFIED.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { formatJunit } from '../../src/cli/render/junit.js';
import { type AuditReport, runAudit } from '../../src/run/audit.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer, T0 } from '../helpers/tamper.js';

type Rewrite = (path: string, json: unknown) => unknown;

/**
 * A local proxy on port 0 in front of the real (untampered) server that keeps its headers
 * (Cache-Control, Age, Date) and optionally rewrites JSON bodies; the audit reaches it through
 * its one HTTP client, as it would reach any exchange.
 */
interface RewritingProxy {
  readonly base: string;
  rewrite: Rewrite | undefined;
  close(): Promise<void>;
}

async function startRewritingProxy(targetBase: string): Promise<RewritingProxy> {
  const target = new URL(targetBase).origin;
  const proxy: { rewrite: Rewrite | undefined } = { rewrite: undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const r = await fetch(target + (req.url ?? '/'), { method: req.method ?? 'GET' });
      const text = await r.text();
      let out = text;
      const rewrite = proxy.rewrite;
      if (rewrite !== undefined) {
        const path = new URL(req.url ?? '/', target).pathname.replace(/^\/v1\/public/, '');
        try {
          const j = rewrite(path, JSON.parse(text));
          if (j !== undefined) out = JSON.stringify(j);
        } catch {
          // not JSON: unchanged
        }
      }
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (
          !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)
        )
          headers[k] = v;
      });
      const body = Buffer.from(out);
      res.writeHead(r.status, { ...headers, 'content-length': String(body.length) });
      res.end(body);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(proxy, {
    base: `${origin}/v1/public`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  });
}

let s: AuditServer;
let proxy: RewritingProxy;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'cache-e2e' });
  proxy = await startRewritingProxy(s.directBase);
  dir = mkdtempSync(join(tmpdir(), 'audit-cache-'));
}, 30_000);
afterAll(async () => {
  await proxy.close();
  await s.close();
});

async function audit(mirror: string, rewrite?: Rewrite): Promise<AuditReport & { codes: string[] }> {
  proxy.rewrite = rewrite;
  const report = await runAudit({
    baseUrl: proxy.base,
    mirrorPath: mirror,
    now: () => s.clock.nowMs(),
    exitCodeOf,
    maxRps: 1000, // the server is in this process: no pacing (test/http/pacer.test.ts tests it)
  });
  return { ...report, codes: report.findings.map((f) => f.code) };
}

const swaps = (n: number): void => {
  for (let k = 0; k < n; k++) simulateRandomSwap(s.ex, s.ex.rng);
};

type Ticker = { ticker_id: string; last_price: number; bid: number; ask: number };
const bumpTickers = (path: string, json: unknown): unknown => {
  if (path !== '/aggregator/tickers') return undefined;
  return (json as Ticker[]).map((t) => ({ ...t, last_price: t.last_price * 1.01 }));
};

describe('cached market data (demo flow: snapshots with swaps between, audit right after)', () => {
  it('an honest exchange exits 0 with MARKET_DATA_FROM_CACHE; a tamper then still fails', async () => {
    const mirror = join(dir, 'flow.db');
    // windows are aligned to T0 (03:00:00): aggregator 10 s, /stats 60 s, pools 5 s
    s.clock.setMs(T0 + 1_000);
    const first = await audit(mirror);
    expect(first.summary.exitCode).toBe(0);
    s.clock.setMs(T0 + 2_000);
    swaps(6);
    // the pool snapshot rolls over (5 s); tickers, order books and /stats stay cached
    s.clock.setMs(T0 + 7_100);
    const r = await audit(mirror);
    expect(r.codes).not.toContain('TICKER_MISMATCH');
    expect(r.codes).not.toContain('ORDERBOOK_MISMATCH');
    expect(r.codes).not.toContain('STATS_TVL_MISMATCH');
    const cached = r.findings.filter((f) => f.code === 'MARKET_DATA_FROM_CACHE');
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.some((f) => f.message.startsWith('ticker'))).toBe(true);
    expect(cached.some((f) => f.message.startsWith('orderbook'))).toBe(true);
    expect(cached[0]?.evidence).toHaveProperty('matchedStateAt');
    expect(r.codes).not.toContain('MARKET_DATA_STALE_UNVERIFIED');
    expect(r.summary.exitCode).toBe(0);

    // same moment, but the tickers of the pools that just swapped match no known state, on a
    // server without the tickers' contract extension: inconclusive, listed, exit unchanged
    // (other tickers stay strict: their contracts are older)
    const moved = new Set(
      cached.map((f) => /^ticker (\S+) /.exec(f.message)?.[1]).filter((x): x is string => x !== undefined),
    );
    expect(moved.size).toBeGreaterThan(0);
    const bumpMoved = (keepExtension: boolean) => (path: string, json: unknown) =>
      path === '/aggregator/tickers'
        ? (json as (Ticker & { contract_id?: string; created_event_blob?: string })[]).map((t) => {
            const { contract_id, created_event_blob, ...plain } = t;
            const out = keepExtension ? t : plain;
            return moved.has(t.ticker_id) ? { ...out, last_price: t.last_price * 1.01 } : out;
          })
        : undefined;
    // with the extension the ticker names the contract it was computed from: the same tamper is
    // judged against exactly that proven contract and fails
    const named = await audit(mirror, bumpMoved(true));
    expect(named.codes).toContain('TICKER_MISMATCH');
    expect(named.codes).not.toContain('MARKET_DATA_STALE_UNVERIFIED');
    expect(named.findings.find((f) => f.code === 'TICKER_MISMATCH')?.evidence).toHaveProperty(
      'namedContract',
    );
    expect(named.summary.exitCode).toBe(1);
    const stale = await audit(mirror, bumpMoved(false));
    expect(stale.codes).toContain('MARKET_DATA_STALE_UNVERIFIED');
    expect(stale.codes).not.toContain('TICKER_MISMATCH');
    const skipped = stale.checks.filter((c) => c.name === 'market.ticker' && c.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]?.note).toMatch(/matches no known reserve state/);
    expect(stale.summary.exitCode).toBe(0);
    // JUnit: a skipped test case carrying the reason
    expect(formatJunit(stale.checks, stale.findings)).toMatch(
      /<testcase classname="market" name="market\.ticker [^"]*"><skipped message="ticker [^"]*matches no known reserve state/,
    );
    // the untouched pools' tickers against their old contracts: a tamper there is an error
    const strict = await audit(mirror, bumpTickers);
    expect(strict.codes).toContain('TICKER_MISMATCH');
    expect(strict.summary.exitCode).toBe(1);
  }, 60_000);

  it('contracts older than every cache window: tampered ticker / orderbook / stats TVL exit 1', async () => {
    const mirror = join(dir, 'strict.db');
    s.clock.setMs(T0 + 600_000);
    swaps(3);
    s.clock.setMs(T0 + 720_000);
    expect((await audit(mirror)).summary.exitCode).toBe(0);

    const t = await audit(mirror, bumpTickers);
    expect(t.codes).toContain('TICKER_MISMATCH');
    expect(t.codes).not.toContain('MARKET_DATA_STALE_UNVERIFIED');
    expect(t.summary.exitCode).toBe(1);

    const o = await audit(mirror, (path, json) => {
      if (path !== '/aggregator/orderbook') return undefined;
      const b = json as { bids: [number, number][] };
      if (b.bids[0] !== undefined) b.bids[0] = [b.bids[0][0] * 1.001, b.bids[0][1]];
      return b;
    });
    expect(o.codes).toContain('ORDERBOOK_MISMATCH');
    expect(o.summary.exitCode).toBe(1);

    const st = await audit(mirror, (path, json) => {
      if (path !== '/stats') return undefined;
      const j = json as { stats: { pool_tvl: { tvl_cc: string } } };
      j.stats.pool_tvl.tvl_cc = '1.0000000000';
      return j;
    });
    expect(st.codes).toContain('STATS_TVL_MISMATCH');
    expect(st.summary.exitCode).toBe(1);
  }, 60_000);

  it('the server sends Age on cached responses', async () => {
    s.clock.setMs(T0 + 900_000);
    await fetch(`${s.directBase}/aggregator/tickers`);
    s.clock.setMs(T0 + 903_500);
    const r = await fetch(`${s.directBase}/aggregator/tickers`);
    expect(r.headers.get('cache-control')).toBe('public, max-age=10');
    expect(r.headers.get('age')).toBe('3');
  });
});
