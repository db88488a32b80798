/**
 * Abusive clients against the reference server (`npm run bench:abuse`; issue 30 "Server
 * back-pressure"): the server (`startServer`, the `serve` defaults, 8 pools and 6 h of history) runs
 * in a forked child process; this process plays
 *
 * 1. **websocket toggling**: one socket, then `BENCH_WS_SOCKETS` sockets at once, each subscribing
 *    to 30 channels and then unsubscribing + subscribing them `BENCH_TOGGLES` times; bytes in and out
 *    counted on the TCP sockets (frame headers included). The ratio is given over the whole session and
 *    without the first subscribe (whose snapshots any client is owed once);
 * 2. **pipelining non-readers**: `BENCH_PIPE_SOCKETS` sockets each write `BENCH_PIPE_REQUESTS`
 *    pipelined `GET /pools/proof` and never read, spread over `BENCH_PIPE_ADDRESSES` loopback source
 *    addresses (127.0.0.2…); the server's RSS is sampled;
 *
 * and during each attack a normal client (127.0.0.1, one keep-alive connection) requests
 * `GET /pools/state` in a loop: its p50/p95 latency. Every phase is bounded (`BENCH_SECONDS`);
 * the attackers run in processes of their own. `BENCH_SKIP_WS=1` / `BENCH_SKIP_PIPE=1` skip a phase.
 * Goals (issue 30): bytes out ÷ in ≤ 2 for any client pattern; RSS ≤ 400 MB and the normal client's
 * p95 ≤ 50 ms.
 */
import { fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { Pool } from 'undici';
import WebSocket from 'ws';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TOGGLES = Number(process.env.BENCH_TOGGLES ?? 100);
const WS_SOCKETS = Number(process.env.BENCH_WS_SOCKETS ?? 32);
const PIPE_SOCKETS = Number(process.env.BENCH_PIPE_SOCKETS ?? 500);
const PIPE_REQUESTS = Number(process.env.BENCH_PIPE_REQUESTS ?? 2000);
const PIPE_ADDRESSES = Number(process.env.BENCH_PIPE_ADDRESSES ?? 50);

interface ChildMessage {
  readonly url?: string;
  readonly rss?: number;
}

async function runServer(): Promise<void> {
  const { startServer } = await import('../src/server/serve.js');
  const srv = await startServer({
    port: 0,
    host: '0.0.0.0',
    db: ':memory:',
    contractIdVersion: 'v12',
    seed: 'abuse',
    historyMs: 6 * 3_600_000,
    historyPerMinute: 2,
    simulation: false,
    logger: { info: () => {}, error: () => {} },
  });
  process.send?.({ url: srv.url });
  process.on('message', (m: unknown) => {
    if (m === 'rss') {
      const u = process.memoryUsage();
      if (process.env.BENCH_DEBUG === '1')
        srv.server.getConnections((_e, n) =>
          console.error(
            `  [server] rss ${(u.rss / 1e6).toFixed(0)} heap ${(u.heapUsed / 1e6).toFixed(0)} external ${(u.external / 1e6).toFixed(0)} buffers ${(u.arrayBuffers / 1e6).toFixed(0)} MB, connections ${n}`,
          ),
        );
      process.send?.({ rss: u.rss });
    }
    if (m === 'exit') void srv.close().then(() => process.exit(0));
  });
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

/** A normal client: GET /pools/state in a loop until `stop()`; its latencies (ms) and failures. */
function normalClient(origin: string): { stop(): Promise<{ ms: number[]; failed: number }> } {
  const pool = new Pool(origin, { connections: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const ms: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const r = await pool.request({ path: '/v1/public/pools/state', method: 'GET' });
        await r.body.arrayBuffer();
        if (r.statusCode === 200) ms.push(performance.now() - t);
        else failed += 1;
      } catch {
        failed += 1;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await pool.close();
      return { ms, failed };
    },
  };
}

interface ToggleResult {
  bytesIn: number;
  bytesOut: number;
  firstOut: number;
  firstIn: number;
  closed: boolean;
  toggles: number;
}

/**
 * One socket: subscribe 30 channels, then TOGGLES × (unsubscribe + subscribe) as fast as the server
 * reads them (a ping round trip every 10 toggles), for at most BENCH_SECONDS.
 */
async function toggler(wsUrl: string, channels: string[]): Promise<ToggleResult> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const sock = (ws as unknown as { _socket: Socket })._socket;
  let closed = false;
  ws.on('close', () => {
    closed = true;
  });
  ws.on('message', () => {});
  ws.on('error', () => {});
  const sub = JSON.stringify({ op: 'subscribe', channels });
  const unsub = JSON.stringify({ op: 'unsubscribe', channels });
  const sync = async (): Promise<void> => {
    // a ping round trip: everything sent before it has been answered
    await new Promise<void>((resolve) => {
      const on = (d: WebSocket.RawData): void => {
        if (d.toString() === '{"op":"pong"}') {
          ws.off('message', on);
          resolve();
        }
      };
      ws.on('message', on);
      ws.send('{"op":"ping"}');
      setTimeout(resolve, 10_000);
    });
  };
  ws.send(sub);
  await sync();
  const firstOut = sock.bytesRead;
  const firstIn = sock.bytesWritten;
  const deadline = performance.now() + SECONDS * 1000;
  let toggles = 0;
  for (let i = 0; i < TOGGLES && !closed && performance.now() < deadline; i++) {
    ws.send(unsub);
    ws.send(sub);
    toggles += 1;
    if (i % 10 === 9) await sync();
  }
  await sync();
  const r = { bytesIn: sock.bytesWritten, bytesOut: sock.bytesRead, firstOut, firstIn, closed, toggles };
  ws.close();
  return r;
}

async function channelsOf(origin: string): Promise<string[]> {
  const info = (await (await fetch(`${origin}/v1/public/markets/info`)).json()) as {
    data: { markets: { channels: { ticker: string; candles: string[] } }[] };
  };
  const all = info.data.markets.flatMap((m) => [m.channels.ticker, ...m.channels.candles]);
  return all.slice(0, 30);
}

function fmtRatio(r: ToggleResult[]): string {
  const inAll = r.reduce((s, x) => s + x.bytesIn, 0);
  const outAll = r.reduce((s, x) => s + x.bytesOut, 0);
  const inToggles = r.reduce((s, x) => s + x.bytesIn - x.firstIn, 0);
  const outToggles = r.reduce((s, x) => s + x.bytesOut - x.firstOut, 0);
  return (
    `in ${(inAll / 1e3).toFixed(0)} KB, out ${(outAll / 1e6).toFixed(2)} MB, out÷in ${(outAll / inAll).toFixed(2)}; ` +
    `toggles only: in ${(inToggles / 1e3).toFixed(0)} KB, out ${(outToggles / 1e3).toFixed(0)} KB, ` +
    `out÷in ${(outToggles / inToggles).toFixed(2)}; ${r.reduce((s, x) => s + x.toggles, 0)} toggles done; ` +
    `closed by the server: ${r.filter((x) => x.closed).length}`
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'child') return runServer();
  if (process.argv[2] === 'pipe') return runPipeliners(Number(process.argv[3]));
  if (process.argv[2] === 'toggle') {
    const [wsUrl = '', channels = '[]'] = process.argv.slice(3);
    const list = JSON.parse(channels) as string[];
    const results = await Promise.all(
      Array.from({ length: WS_SOCKETS }, () => toggler(wsUrl, list).catch(() => null)),
    );
    process.send?.(results);
    return;
  }
  const child = fork(new URL(import.meta.url).pathname, ['child'], {
    execArgv: process.execArgv,
    stdio: 'inherit',
  });
  const messages: ChildMessage[] = [];
  const waiters: ((m: ChildMessage) => void)[] = [];
  child.on('message', (m: ChildMessage) => {
    const w = waiters.shift();
    if (w !== undefined) w(m);
    else messages.push(m);
  });
  const next = (): Promise<ChildMessage> =>
    new Promise((r) => {
      const m = messages.shift();
      if (m !== undefined) r(m);
      else waiters.push(r);
    });
  const rss = async (): Promise<number> => {
    child.send('rss');
    return (await next()).rss ?? Number.NaN;
  };
  const { url = '' } = await next();
  const port = Number(new URL(url).port);
  const origin = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}/v1/ws/public`;
  console.log(
    `node ${process.version}, load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const channels = await channelsOf(origin);

  if (process.env.BENCH_SKIP_WS !== '1') await wsPhase(origin, wsUrl, channels);
  if (process.env.BENCH_SKIP_PIPE !== '1') await pipelinePhase(origin, port, rss);
  child.send('exit');
  await new Promise((r) => child.once('exit', r));
}

async function wsPhase(origin: string, wsUrl: string, channels: string[]): Promise<void> {
  // 1. websocket toggling
  const one = await toggler(wsUrl, channels);
  console.log(`ws, 1 socket × ${TOGGLES} toggles of ${channels.length} channels: ${fmtRatio([one])}`);
  const normal1 = normalClient(origin);
  const t0 = performance.now();
  // the togglers run in a process of their own, so that the normal client's latency is the server's
  const togglers = fork(new URL(import.meta.url).pathname, ['toggle', wsUrl, JSON.stringify(channels)], {
    execArgv: process.execArgv,
    stdio: 'inherit',
  });
  const many = await new Promise<(ToggleResult | null)[]>((resolve) =>
    togglers.once('message', (m) => resolve(m as (ToggleResult | null)[])),
  );
  const wsSeconds = (performance.now() - t0) / 1000;
  const n1 = await normal1.stop();
  togglers.kill();
  const ok = many.filter((x): x is ToggleResult => x !== null);
  console.log(
    `ws, ${WS_SOCKETS} sockets (${ok.length} opened) × ${TOGGLES} toggles, ${wsSeconds.toFixed(1)} s: ${fmtRatio(ok)}`,
  );
  console.log(
    `  normal client meanwhile: ${n1.ms.length} answers, p50 ${percentile(n1.ms, 50).toFixed(1)} ms, p95 ${percentile(n1.ms, 95).toFixed(1)} ms, failed ${n1.failed}`,
  );
}

async function pipelinePhase(origin: string, port: number, rss: () => Promise<number>): Promise<void> {
  // 2. pipelining non-readers
  const rssBefore = await rss();
  const normal2 = normalClient(origin);
  // the attackers run in a process of their own, so that the normal client's latency is the server's
  const attackers = fork(new URL(import.meta.url).pathname, ['pipe', String(port)], {
    execArgv: process.execArgv,
    stdio: 'inherit',
  });
  let peak = rssBefore;
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    peak = Math.max(peak, await rss());
  }
  const rssEnd = await rss();
  const n2 = await normal2.stop();
  attackers.kill();
  console.log(
    `pipelining: ${PIPE_SOCKETS} sockets × ${PIPE_REQUESTS} GET /pools/proof never read, from ${PIPE_ADDRESSES} addresses, ${SECONDS} s: ` +
      `server RSS ${(rssBefore / 1e6).toFixed(0)} MB → peak ${(peak / 1e6).toFixed(0)} MB, end ${(rssEnd / 1e6).toFixed(0)} MB`,
  );
  console.log(
    `  normal client meanwhile: ${n2.ms.length} answers, p50 ${percentile(n2.ms, 50).toFixed(1)} ms, p95 ${percentile(n2.ms, 95).toFixed(1)} ms, failed ${n2.failed}`,
  );
}

/** The attackers' process: PIPE_SOCKETS connections that write pipelined requests and never read. */
function runPipeliners(port: number): void {
  const req = `GET /v1/public/pools/proof HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  const payload = Buffer.from(req.repeat(PIPE_REQUESTS));
  const sockets: Socket[] = [];
  for (let i = 0; i < PIPE_SOCKETS; i++) {
    const localAddress = `127.0.0.${2 + (i % PIPE_ADDRESSES)}`;
    const s = connect({ port, host: '127.0.0.1', localAddress });
    s.on('error', () => {});
    s.on('connect', () => {
      s.write(payload);
      s.pause();
    });
    sockets.push(s);
  }
  setInterval(() => {}, 1000);
}

await main();
