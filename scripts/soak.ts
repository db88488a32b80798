/**
 * `npm run soak`: audits of HONEST reference servers under traffic, to measure false alarms
 * (docs/findings.md "Soundness"). For each traffic setting (`serve --traffic 600` on the seed
 * market, `serve --pools 300 --traffic 3000`) a server runs in a child process (this script, with
 * `--serve`), and audits run in this process (runAudit) with and without a mirror and with and
 * without probe quotes. Prints every audit's exit code, the codes of every error and every
 * could-not-check finding, the share of market-data comparisons decided (pass or fail, not skipped
 * or could-not-check) and the wall time. Exits 1 when any audit exited non-zero.
 *
 *   npm run soak -- --audits 25        # audits per (setting × mirror × probe) combination
 *   npm run soak -- --audits 30 --audits-3000 20   # fewer at the 3000 swaps/min setting
 *   npm run soak -- --settings 600     # only the 600 swaps/min setting
 *   npm run soak -- --settings 3000 --mirror no --probes yes   # one combination
 *
 * Every error finding of an audit (a false accusation: the servers are honest) is printed with its
 * message and evidence, so a failing soak says why; with `--show-undecided` every could-not-check
 * finding too (what the auditor knew: the state window, the newest contract, the mismatch).
 *
 *   npm run soak -- --settings 600 --audits 10 --show-undecided
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exitCodeOf } from '../src/cli/exit-codes.js';
import { runAudit } from '../src/run/audit.js';
import { startServer } from '../src/server/serve.js';

interface Setting {
  readonly name: string;
  readonly traffic: number;
  readonly pools?: number;
}

const SETTINGS: readonly Setting[] = [
  { name: '600', traffic: 600 },
  { name: '3000', traffic: 3000, pools: 300 },
];

/** Market-data comparisons: decided = pass or fail; undecided = skipped with a reason or could-not-check. */
const MARKET_CHECK = /^(market\.ticker|market\.orderbook|market\.pairs|stats\.|quote\.)/;

async function serveChild(traffic: number, pools: number | undefined): Promise<void> {
  const s = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: ':memory:',
    contractIdVersion: 'v12',
    trafficPerMinute: traffic,
    ...(pools === undefined ? {} : { extraPools: pools }),
    simulation: false,
    logger: { info: () => {}, error: (m) => process.stderr.write(`${m}\n`) },
  });
  process.stdout.write(`URL ${s.url}\n`);
  process.on('SIGTERM', () => {
    void s.close().then(() => process.exit(0));
  });
}

function startChild(s: Setting): Promise<{ child: ChildProcess; base: string }> {
  const args = [
    '--import',
    'tsx',
    process.argv[1] ?? 'scripts/soak.ts',
    '--serve',
    '--traffic',
    String(s.traffic),
  ];
  if (s.pools !== undefined) args.push('--pools', String(s.pools));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)\n/.exec(out);
      if (m?.[1] !== undefined) resolve({ child, base: `${m[1]}/v1/public` });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

interface Tally {
  audits: number;
  exits: Map<number, number>;
  codes: Map<string, number>;
  decided: number;
  undecided: number;
  undecidedChecks: Map<string, number>;
  wallMs: number[];
}

const bump = (m: Map<string | number, number>, k: string | number): void => {
  m.set(k, (m.get(k) ?? 0) + 1);
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'boolean', default: false },
      traffic: { type: 'string', default: '600' },
      pools: { type: 'string' },
      audits: { type: 'string', default: '13' },
      'audits-3000': { type: 'string' },
      settings: { type: 'string', default: '600,3000' },
      warmup: { type: 'string', default: '15' },
      mirror: { type: 'string', default: 'both' },
      probes: { type: 'string', default: 'both' },
      'show-undecided': { type: 'boolean', default: false },
    },
  });
  if (values.serve) {
    await serveChild(Number(values.traffic), values.pools === undefined ? undefined : Number(values.pools));
    return;
  }
  const n = Number(values.audits);
  const wanted = new Set(values.settings.split(','));
  const pick = (flag: string, v: string): boolean[] => {
    if (v === 'both') return [false, true];
    if (v === 'yes' || v === 'no') return [v === 'yes'];
    throw new Error(`--${flag} expected yes, no or both, got ${JSON.stringify(v)}`);
  };
  const mirrors = pick('mirror', values.mirror);
  const probeModes = pick('probes', values.probes);
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const all: Tally[] = [];
  let bad = 0;
  try {
    for (const s of SETTINGS.filter((x) => wanted.has(x.name))) {
      const { child, base } = await startChild(s);
      // let traffic run so caches hold states older than the newest contracts
      await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
      try {
        for (const mirror of mirrors)
          for (const probe of probeModes) {
            const label = `traffic ${s.traffic}/min${s.pools === undefined ? '' : `, +${s.pools} pools`}, ${mirror ? 'mirror' : 'no mirror'}, ${probe ? 'probe quotes' : 'no probes'}`;
            const t: Tally = {
              audits: 0,
              exits: new Map(),
              codes: new Map(),
              decided: 0,
              undecided: 0,
              undecidedChecks: new Map(),
              wallMs: [],
            };
            const mirrorPath = join(dir, `m-${s.name}-${probe}.db`);
            const count =
              s.name === '3000' && values['audits-3000'] !== undefined ? Number(values['audits-3000']) : n;
            for (let i = 0; i < count; i++) {
              const t0 = Date.now();
              const r = await runAudit({
                baseUrl: base,
                mirrorPath: mirror ? mirrorPath : null,
                probeQuotes: probe,
              });
              t.wallMs.push(Date.now() - t0);
              const exit = exitCodeOf(r.outcome);
              t.audits++;
              bump(t.exits, exit);
              if (exit !== 0) bad++;
              const codes: string[] = [];
              for (const f of r.findings)
                if (f.severity === 'error' || f.label === 'could-not-check') {
                  bump(t.codes, `${f.code}${f.severity === 'error' ? ' [error]' : ''}`);
                  codes.push(f.code);
                }
              for (const k of r.checks)
                if (MARKET_CHECK.test(k.name)) {
                  if (k.status === 'pass' || k.status === 'fail') t.decided++;
                  else if (k.note !== 'no --probe-quotes') {
                    t.undecided++;
                    bump(t.undecidedChecks, k.name.replace(/^quote\..*/, 'quote.*'));
                  }
                }
              if (exit !== 0 || codes.length > 0) {
                const counts = new Map<string, number>();
                for (const c of codes) bump(counts, c);
                process.stdout.write(
                  `  ${label} #${i + 1}: exit ${exit} ${[...counts].map(([k, v]) => `${k}×${v}`).join(' ')}\n`,
                );
                for (const f of r.findings)
                  if (f.severity === 'error' || (values['show-undecided'] && f.label === 'could-not-check'))
                    process.stdout.write(
                      `    ${f.code} ${f.pool ?? ''}: ${f.message}\n      ${JSON.stringify(f.evidence).slice(0, 4000)}\n`,
                    );
              }
            }
            all.push(t);
            const wall = [...t.wallMs].sort((a, b) => a - b);
            const pct = t.decided + t.undecided === 0 ? 100 : (100 * t.decided) / (t.decided + t.undecided);
            process.stdout.write(
              `${label}: ${t.audits} audits, exits ${[...t.exits].map(([k, v]) => `${v}×${k}`).join(' ')}; ` +
                `market data decided ${pct.toFixed(2)} % (${t.decided}/${t.decided + t.undecided}` +
                `${t.undecidedChecks.size === 0 ? '' : `; undecided ${[...t.undecidedChecks].map(([k, v]) => `${k}×${v}`).join(', ')}`}); ` +
                `wall median ${wall[Math.floor(wall.length / 2)]} ms, max ${wall[wall.length - 1]} ms; ` +
                `codes ${t.codes.size === 0 ? 'none' : [...t.codes].map(([k, v]) => `${k}×${v}`).join(', ')}\n`,
            );
          }
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const total = all.reduce((a, t) => a + t.audits, 0);
  process.stdout.write(`total: ${total} audits, ${bad} with a non-zero exit\n`);
  process.exitCode = bad === 0 ? 0 : 1;
}

await main();
