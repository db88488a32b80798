/**
 * Load benchmark of the reference server (`npm run bench:server`): requests/s and p50/p99 latency
 * of GET /pools/state, GET /pools/proof and POST /connect/quote, next to a bare node:http server
 * answering a fixed JSON body in the same run (the floor). Servers run in a forked child process
 * (their own event loop), the load generator here: an undici Pool with keep-alive, loopback only,
 * bounded by time per target. Goals: cached GETs ≥ 70 % of the floor, quotes ≥ 30 %.
 *
 * Options (env): BENCH_SECONDS (per target and round, default 3), BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 32), BENCH_WARMUP_SECONDS (default 1).
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Pool } from 'undici';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** target index → index of its same-bytes floor (state → 1, proof → 2, quotes → 3) */
const SAME_BYTES_FLOOR: Readonly<Record<number, number>> = { 4: 1, 5: 2, 6: 3, 7: 3 };

async function runServers(): Promise<void> {
  const { createApp } = await import('../src/server/app.js');
  const { openServerDb } = await import('../src/sim/store/connection.js');
  const { systemClock } = await import('../src/sim/clock.js');
  const { createExchange } = await import('../src/sim/ledger.js');
  const { createSeededRng } = await import('../src/sim/rng.js');
  const { loadSeedMarket } = await import('../src/sim/seed-market.js');
  const { prefillHistory } = await import('../src/sim/traffic.js');
  const exchange = createExchange({
    db: openServerDb(':memory:'),
    clock: systemClock,
    rng: createSeededRng('bench'),
    seedMarket: loadSeedMarket(),
  });
  prefillHistory(exchange, { duration: 86_400_000, swapsPerMinute: 1 });
  const app = createApp({ exchange });
  const appServer = createServer({ keepAliveTimeout: 30_000 }, app.handler);
  await new Promise<void>((r) => appServer.listen(0, '127.0.0.1', r));
  const appPort = (appServer.address() as AddressInfo).port;
  const cc = exchange.cc();
  const pool = exchange.pools().find((p) => p.active && (p.tokenA.id === cc.id || p.tokenB.id === cc.id));
  const other = pool === undefined ? cc : pool.tokenA.id === cc.id ? pool.tokenB : pool.tokenA;
  const quote = {
    sellAmount: '1000',
    sellInstrumentId: cc.id,
    sellInstrumentAdmin: cc.admin,
    buyInstrumentId: other.id,
    buyInstrumentAdmin: other.admin,
  };
  // floors: a tiny fixed JSON body, and fixed bodies of the very bytes each target answers
  const fetchBytes = async (path: string, init?: RequestInit): Promise<Buffer> =>
    Buffer.from(await (await fetch(`http://127.0.0.1:${appPort}${path}`, init)).arrayBuffer());
  const floorBodies = new Map<string, Buffer>([
    ['/', Buffer.from(JSON.stringify({ data: { updated_at: new Date().toISOString(), ok: true } }))],
    ['/state', await fetchBytes('/v1/public/pools/state')],
    ['/proof', await fetchBytes('/v1/public/pools/proof')],
    ['/quote', await fetchBytes('/v1/public/connect/quote', { method: 'POST', body: JSON.stringify(quote) })],
  ]);
  const floor = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    const body = floorBodies.get(req.url ?? '/') ?? (floorBodies.get('/') as Buffer);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => floor.listen(0, '127.0.0.1', r));
  process.send?.({
    app: appPort,
    floor: (floor.address() as AddressInfo).port,
    sizes: Object.fromEntries([...floorBodies].map(([k, v]) => [k, v.length])),
    quote,
  });
}

interface Result {
  readonly name: string;
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(
  name: string,
  port: number,
  path: string,
  method: 'GET' | 'POST',
  body: string | (() => string) | undefined,
  seconds: number = SECONDS,
): Promise<Result> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await pool.request({
          path,
          method,
          ...(body === undefined
            ? {}
            : {
                body: typeof body === 'string' ? body : body(),
                headers: { 'content-type': 'application/json' },
              }),
        });
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    name,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: q(0.5),
    p99: q(0.99),
    errors,
  };
}

async function main(): Promise<void> {
  const loadBefore = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const child = fork(new URL(import.meta.url).pathname, ['--servers'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<{
    app: number;
    floor: number;
    quote: unknown;
    sizes: Record<string, number>;
  }>((resolve, reject) => {
    child.once('message', (m) =>
      resolve(m as { app: number; floor: number; quote: unknown; sizes: Record<string, number> }),
    );
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
  try {
    const quote = JSON.stringify(ports.quote);
    // a different sell amount on every request: never answered from the quote memo
    let n = 0;
    const distinctQuote = (): string =>
      JSON.stringify({ ...(ports.quote as object), sellAmount: `1000.${String(++n).padStart(10, '0')}` });
    // warm up every target (JIT, caches) before measuring
    const warm = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
    await load('warmup', ports.floor, '/', 'GET', undefined, warm);
    await load('warmup', ports.app, '/v1/public/pools/state', 'GET', undefined, warm);
    await load('warmup', ports.app, '/v1/public/pools/proof', 'GET', undefined, warm);
    await load('warmup', ports.app, '/v1/public/connect/quote', 'POST', distinctQuote, warm);
    const targets: [string, number, string, 'GET' | 'POST', string | (() => string) | undefined][] = [
      ['floor: bare node:http, fixed JSON', ports.floor, '/', 'GET', undefined],
      [
        `floor, same bytes as /pools/state (${ports.sizes['/state']} B)`,
        ports.floor,
        '/state',
        'GET',
        undefined,
      ],
      [
        `floor, same bytes as /pools/proof (${ports.sizes['/proof']} B)`,
        ports.floor,
        '/proof',
        'GET',
        undefined,
      ],
      [
        `floor, same bytes as a quote (${ports.sizes['/quote']} B), POSTed`,
        ports.floor,
        '/quote',
        'POST',
        quote,
      ],
      ['GET /v1/public/pools/state', ports.app, '/v1/public/pools/state', 'GET', undefined],
      ['GET /v1/public/pools/proof', ports.app, '/v1/public/pools/proof', 'GET', undefined],
      [
        'POST /v1/public/connect/quote (distinct amounts)',
        ports.app,
        '/v1/public/connect/quote',
        'POST',
        distinctQuote,
      ],
      [
        'POST /v1/public/connect/quote (repeated body, memo)',
        ports.app,
        '/v1/public/connect/quote',
        'POST',
        quote,
      ],
    ];
    // rounds interleave the floor and the targets, so a load change on the machine hits both;
    // each target's ratio to the floor is taken per round, and the median round is reported
    const rounds: Result[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round: Result[] = [];
      for (const [name, port, path, method, body] of targets)
        round.push(await load(name, port, path, method, body));
      rounds.push(round);
    }
    const median = (xs: number[]): number => {
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.floor(s.length / 2)] ?? 0;
    };
    console.log(
      `node ${process.version}, ${CONNECTIONS} keep-alive connections, ${SECONDS}s per target × ${ROUNDS} rounds, loopback, ` +
        `load average before: ${loadBefore}`,
    );
    console.log(
      '| target | req/s (median) | % of floor | % of same-bytes floor | p50 ms | p99 ms | non-200 |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    targets.forEach(([name], i) => {
      const rs = rounds.map((round) => round[i] as Result);
      const ratioTo = (j: number): number =>
        median(rounds.map((round) => (round[i] as Result).rps / ((round[j] as Result).rps || 1)));
      const sameBytes = SAME_BYTES_FLOOR[i];
      console.log(
        `| ${name} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${(100 * ratioTo(0)).toFixed(0)} % | ${sameBytes === undefined ? '' : `${(100 * ratioTo(sameBytes)).toFixed(0)} %`} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${rs.reduce((a, r) => a + r.errors, 0)} |`,
      );
    });
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--servers')) {
  runServers().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
