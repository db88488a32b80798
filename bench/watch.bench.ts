/**
 * A timed run of `reserve-audit watch` (issue 27 "Targets"; docs/watch.md "Measured"):
 * `serve --traffic 600 --faults 429:0.25,503:0.15,reset:0.10` (the built CLI, spawned), in front of
 * it a tampering proxy of this process that changes one pool's published reserve in /pools/proof
 * (the JSON only: PROOF_FIELD_MISMATCH) from 40 % to 60 % of the run, a webhook receiver, and
 * `watch --every 2s --audit-every 20s --metrics-port 0 --log-format json --alert-webhook …` against
 * the proxy. At the end (SIGTERM) it prints: steps, missed ticks, overlapping steps (from the log),
 * audit outcomes, alerts received (the tamper's firing + resolved, and any other = false alerts),
 * the watch's RSS after the warm-up (the first quarter of the run) and at the end, and the exit code.
 *
 *   npx tsx bench/watch.bench.ts [--minutes 2] [--no-faults]
 *
 * Run `npm run build` first (the CLI is spawned from dist/).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const argv = process.argv.slice(2);
const minutesArg = argv.indexOf('--minutes');
const MINUTES = minutesArg >= 0 ? Number(argv[minutesArg + 1]) : 2;
const FAULTS = argv.includes('--no-faults') ? null : '429:0.25,503:0.15,reset:0.10';

function cli(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  out: { stdout: string; stderr: string };
} {
  const child = spawn(process.execPath, [join(root, 'bin', 'reserve-audit.js'), ...args], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return { child, out };
}

async function until<T>(f: () => T | null, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function bump(amount: string): string {
  const [i, f] = amount.split('.');
  return `${BigInt(i ?? '0') + 1n}${f === undefined ? '' : `.${f}`}`;
}

async function main(): Promise<void> {
  const serveArgs = ['serve', '--port', '0', '--db', ':memory:', '--traffic', '600', '--seed', 'watch-bench'];
  const serve = cli(
    FAULTS === null ? serveArgs : [...serveArgs, '--faults', FAULTS, '--fault-seed', 'watch-bench'],
  );
  const upstream = await until(
    () => /https?:\/\/127\.0\.0\.1:\d+/.exec(serve.out.stdout + serve.out.stderr)?.[0] ?? null,
    30_000,
    'serve',
  );

  // the tampering proxy: the fault gateway's answers passed through, /pools/proof changed while `tamper`
  let tamper = false;
  const proxy = await listen((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const r = await request(upstream + (req.url ?? '/'), {
        method: (req.method ?? 'GET') as 'GET',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
        ...(body.length > 0 ? { body } : {}),
      });
      let out = Buffer.from(await r.body.arrayBuffer());
      if (tamper && r.statusCode === 200 && (req.url ?? '').startsWith('/v1/public/pools/proof')) {
        const j = JSON.parse(out.toString('utf8')) as {
          data: { pools: { reserve_contract: { reserve_a: string } }[] };
        };
        const rc = j.data.pools[0]?.reserve_contract;
        if (rc !== undefined) rc.reserve_a = bump(rc.reserve_a);
        out = Buffer.from(JSON.stringify(j));
      }
      const headers: Record<string, string> = { 'content-length': String(out.length) };
      for (const h of ['content-type', 'retry-after', 'cache-control', 'age', 'date']) {
        const v = r.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      res.writeHead(r.statusCode, headers).end(out);
    })().catch(() => req.socket.destroy());
  });

  const alerts: Record<string, unknown>[] = [];
  const hook = await listen((req, res) => {
    void readBody(req).then((b) => {
      alerts.push(JSON.parse(b.toString('utf8')) as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });

  const dir = mkdtempSync(join(tmpdir(), 'watch-bench-'));
  const watchArgs = [
    'watch',
    '--base-url',
    `${proxy}/v1/public`,
    '--mirror',
    join(dir, 'mirror.db'),
    '--every',
    '2s',
    '--audit-every',
    '20s',
    '--metrics-port',
    '0',
    '--log-format',
    'json',
    '--alert-webhook',
    `${hook}/hook`,
  ];
  const t0 = Date.now();
  const watch = cli(watchArgs);
  const events = (): Record<string, unknown>[] =>
    watch.out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const metricsUrl = await until(
    () => (events().find((e) => e.event === 'metrics-listening')?.url as string | undefined) ?? null,
    30_000,
    'the metrics port',
  );
  const rss = async (): Promise<number> => {
    const text = await (await fetch(metricsUrl)).text();
    return Number(/^reserve_audit_process_resident_memory_bytes (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  await until(() => (events().some((e) => e.event === 'audit') ? true : null), 120_000, 'the first audit');
  const runMs = MINUTES * 60_000;
  let peak = await rss();
  const sampler = setInterval(() => {
    void rss().then((v) => {
      if (v > peak) peak = v;
    });
  }, 5_000);
  const at = (fraction: number): Promise<void> =>
    new Promise((r) => setTimeout(r, Math.max(0, t0 + runMs * fraction - Date.now())));
  // warm-up: the first quarter of the run (the heap and SQLite's page cache grow for about a minute)
  await at(0.25);
  const rssWarm = await rss();
  await at(0.4);
  tamper = true;
  await at(0.6);
  tamper = false;
  await at(1);
  clearInterval(sampler);
  const rssEnd = await rss();
  watch.child.kill('SIGTERM');
  const code = await new Promise<number | null>((r) => watch.child.on('close', (c) => r(c)));
  serve.child.kill('SIGTERM');

  const log = events();
  const steps = log.filter((e) => e.event === 'snapshot' || e.event === 'audit');
  let overlaps = 0;
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1]!;
    if ((steps[i]!.started_at_ms as number) < (prev.started_at_ms as number) + (prev.duration_ms as number))
      overlaps++;
  }
  const missed = log.filter((e) => e.event === 'tick-missed').reduce((n, e) => n + (e.ticks as number), 0);
  const outcomes: Record<string, number> = {};
  for (const e of log.filter((x) => x.event === 'audit'))
    outcomes[String(e.outcome)] = (outcomes[String(e.outcome)] ?? 0) + 1;
  const snapshots: Record<string, number> = {};
  for (const e of log.filter((x) => x.event === 'snapshot'))
    snapshots[String(e.result)] = (snapshots[String(e.result)] ?? 0) + 1;
  const tamperAlerts = alerts.filter((a) => a.alert === 'audit-failed');
  const falseAlerts = alerts.length - Math.min(tamperAlerts.length, 2);
  const durations = (kind: string): string => {
    const d = steps
      .filter((e) => e.event === kind)
      .map((e) => e.duration_ms as number)
      .sort((a, b) => a - b);
    const q = (p: number): number => d[Math.min(d.length - 1, Math.floor(p * d.length))] ?? 0;
    return `p50 ${(q(0.5) / 1000).toFixed(1)} s, p95 ${(q(0.95) / 1000).toFixed(1)} s, max ${(q(1) / 1000).toFixed(1)} s`;
  };
  const mb = (b: number): string => `${(b / 1048576).toFixed(1)} MB`;
  process.stdout.write(
    [
      `watch --every 2s --audit-every 20s, ${MINUTES} min against serve --traffic 600${FAULTS === null ? '' : ` --faults ${FAULTS}`} (load ${loadavg()[0]?.toFixed(1)})`,
      `snapshots ${JSON.stringify(snapshots)}  (${durations('snapshot')})`,
      `audits ${JSON.stringify(outcomes)}  (${durations('audit')})`,
      `missed ticks ${missed}, overlapping steps ${overlaps}, backoff pauses ${log.filter((e) => e.event === 'backoff').length}`,
      `alerts ${alerts.map((a) => `${a.alert} ${a.status}`).join(', ') || 'none'}; tamper: ${tamperAlerts.filter((a) => a.status === 'firing').length} firing, ${tamperAlerts.filter((a) => a.status === 'resolved').length} resolved; false alerts ${falseAlerts}`,
      `RSS after the warm-up (25 % of the run) ${mb(rssWarm)}, at the end ${mb(rssEnd)} (${(((rssEnd - rssWarm) / rssWarm) * 100).toFixed(1)} %), peak ${mb(peak)}`,
      `exit code ${code}`,
      '',
    ].join('\n'),
  );
  process.exit(0);
}

void main();
