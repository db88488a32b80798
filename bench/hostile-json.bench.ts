/**
 * A hostile exchange that answers every read with JSON built to exhaust the auditor (issue 30
 * "Bounded parsing"; docs/threat-model.md "Attacks on the auditor"): `npm run build`, then
 * `npx tsx bench/hostile-json.bench.ts`. The reference server runs in this process behind the test
 * suite's tampering proxy; each variant replaces every 200 body, and the built CLI runs
 * `audit --base-url …` as a child process at the default pacing. Per variant: the exit code, the
 * wall time of the whole process (start-up included) and its peak RSS (`process.resourceUsage()` of
 * the child, reported at its exit), medians of `BENCH_RUNS` runs (default 3), beside the same audit
 * of the honest server as the floor measured in the same run.
 *
 * Variants, each inside the 16 MiB body cap: `open` 8 M `[` (8 MB); `balanced` 8 M `[` then 8 M `]`
 * (16 MB); `wide` one array of 8 M zeros (16 MB, the token bound). Goal (issue 30): the audit ends
 * with exit 2 in ≤ 2 s and ≤ 300 MB RSS.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startAuditServer, type Tamper } from '../test/helpers/tamper.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLI = join(import.meta.dirname, '..', 'bin', 'reserve-audit.js');
// the child reports its own peak RSS (kilobytes on Linux) as its last stderr line
const MAX_RSS_HOOK =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>writeSync(2,"\\nMAXRSS "+process.resourceUsage().maxRSS+"\\n"))';

const M = 8_000_000;
const VARIANTS: Record<string, Buffer | null> = {
  honest: null,
  open: Buffer.alloc(M, 0x5b),
  balanced: Buffer.concat([Buffer.alloc(M, 0x5b), Buffer.alloc(M, 0x5d)]),
  wide: Buffer.from(`[${'0,'.repeat(M - 1)}0]`),
};

interface Run {
  readonly code: number | null;
  readonly wallMs: number;
  readonly rssMb: number;
  readonly cause: string;
}

function runAudit(base: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', MAX_RSS_HOOK, CLI, 'audit', '--base-url', base], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const rss = /MAXRSS ([0-9]+)/.exec(err);
      const cause = /HTTP_[A-Z_]+/.exec(err)?.[0] ?? '';
      resolve({ code, wallMs, rssMb: rss === null ? Number.NaN : Number(rss[1]) / 1024, cause });
    });
  });
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const server = await startAuditServer({ seed: 'hostile-json-bench' });
  try {
    console.log(`hostile JSON: ${RUNS} runs per variant, load ${(loadavg()[0] ?? 0).toFixed(2)}`);
    console.log('| variant | body | exits | cause | wall median | peak RSS median |');
    console.log('|---|---:|---|---|---:|---:|');
    for (const [name, body] of Object.entries(VARIANTS)) {
      const tamper: Tamper | undefined =
        body === null ? undefined : (ctx) => (ctx.status === 200 ? { raw: body } : undefined);
      server.setTamper(tamper);
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await runAudit(server.base));
      const exits = [...new Set(runs.map((r) => r.code))].join('/');
      const cause = [...new Set(runs.map((r) => r.cause).filter((c) => c !== ''))].join(', ') || '—';
      const size = body === null ? '—' : `${(body.length / 1e6).toFixed(0)} MB`;
      console.log(
        `| ${name} | ${size} | ${exits} | ${cause} | ${(median(runs.map((r) => r.wallMs)) / 1000).toFixed(2)} s | ${median(runs.map((r) => r.rssMb)).toFixed(0)} MB |`,
      );
    }
  } finally {
    await server.close();
  }
}

await main();
