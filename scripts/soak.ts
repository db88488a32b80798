/**
 * `npm run soak`: audits of HONEST reference servers under traffic, to measure false alarms
 * (docs/findings.md "Soundness"). For each traffic setting (`serve --traffic 600` on the seed
 * market, `serve --pools 300 --traffic 3000`) a server runs in a child process (this script, with
 * `--serve`), and audits run in this process (runAudit) with and without a mirror and with and
 * without probe quotes. Prints every audit's exit code, the codes of every error and every
 * could-not-check finding, the share of market-data comparisons decided (pass or fail, not skipped
 * or could-not-check) and the wall time.
 *
 *   npm run soak -- --audits 25        # audits per (setting × mirror × probe) combination
 *   npm run soak -- --audits 30 --audits-3000 20   # fewer at the 3000 swaps/min setting
 *   npm run soak -- --settings 600     # only the 600 swaps/min setting
 *   npm run soak -- --settings 3000 --mirror no --probes yes   # one combination
 *
 * With `--faults SPEC` (src/server/fault-spec.ts: `429:0.25,503:0.15,reset:0.10`; the option
 * repeats, or takes a `;`-separated list of specs) the audits go through a fault-injecting proxy
 * (src/server/fault-proxy.ts, started in this process, a fresh one per combination) in front of
 * the child server, once per spec: each spec is one more dimension of the combinations. Per
 * combination it also prints the faults the proxy injected and, when the audit report carries
 * them (`summary.requests`), the auditor's own request counters (sent, retried, throttled, waited).
 * `--baseline` adds the same combinations without faults and prints, per faulted combination, the
 * wall-time ratio (median with faults / median without); `--fault-seed TEXT` makes the draws
 * repeatable.
 *
 *   npm run soak -- --faults '429:0.25;503:0.15;reset:0.10;429:0.25,503:0.15,reset:0.10' --baseline
 *   npm run soak -- --settings 600 --audits 2 --warmup 3 --faults 429:0.25
 *   npm run soak -- --ledger ...       # every audit with --ledger-api against the server's own ledger
 *
 * Exits 1 when any audit exited 1 or 3 (a false accusation, a bug), when any audit without faults
 * exited 2, or when more than 5 % of the audits of a faulted combination exited 2 (could not
 * check); 0 otherwise (the targets of docs/findings.md "Soundness").
 *
 * Every error finding of an audit (a false accusation: the servers are honest) is printed with its
 * message and evidence, so a failing soak says why; with `--show-undecided` every could-not-check
 * finding too (what the auditor knew: the state window, the newest contract, the mismatch).
 *
 *   npm run soak -- --settings 600 --audits 10 --show-undecided
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exitCodeOf } from '../src/cli/exit-codes.js';
import { UsageError } from '../src/errors/usage.js';
import { type AuditReport, runAudit } from '../src/run/audit.js';
import { type FaultProxy, startFaultProxy } from '../src/server/fault-proxy.js';
import { type FaultRule, formatFaultSpec, parseFaultSpec } from '../src/server/fault-spec.js';
import { formatLedgerToken } from '../src/server/ledger-api/auth.js';
import { startServer } from '../src/server/serve.js';
import { createSeededRng } from '../src/sim/rng.js';

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

/** `--ledger`: the auditor party the child's ledger makes an observer of every reserve contract */
const SOAK_AUDITOR = 'soak-auditor::1220aa';

async function serveChild(
  traffic: number,
  pools: number | undefined,
  ledgerSecretHex: string | undefined,
): Promise<void> {
  const s = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: ':memory:',
    contractIdVersion: 'v12',
    ...(ledgerSecretHex === undefined
      ? {}
      : {
          ledgerApi: { auth: { hs256Secret: new Uint8Array(Buffer.from(ledgerSecretHex, 'hex')) } },
          auditorParty: SOAK_AUDITOR,
        }),
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

function startChild(
  s: Setting,
  ledgerSecretHex: string | undefined,
): Promise<{ child: ChildProcess; origin: string }> {
  const args = [
    '--import',
    'tsx',
    process.argv[1] ?? 'scripts/soak.ts',
    '--serve',
    '--traffic',
    String(s.traffic),
  ];
  if (s.pools !== undefined) args.push('--pools', String(s.pools));
  if (ledgerSecretHex !== undefined) args.push('--ledger-secret', ledgerSecretHex);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)\n/.exec(out);
      if (m?.[1] !== undefined) resolve({ child, origin: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

interface Tally {
  audits: number;
  exits: Map<number, number>;
  /** codes of error findings (false accusations) */
  errors: Map<string, number>;
  /** codes of could-not-check findings */
  unchecked: Map<string, number>;
  decided: number;
  undecided: number;
  undecidedChecks: Map<string, number>;
  wallMs: number[];
  /** the auditor's request counters (`summary.requests`), summed; empty when the report has none */
  requests: Map<string, number>;
}

const bump = (m: Map<string | number, number>, k: string | number, by = 1): void => {
  m.set(k, (m.get(k) ?? 0) + by);
};

const list = (m: ReadonlyMap<string | number, number>): string =>
  m.size === 0 ? 'none' : [...m].map(([k, v]) => `${k}×${v}`).join(', ');

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** `summary.requests` of a report, when it has one: every numeric counter in it. */
function requestCounters(r: AuditReport): [string, number][] {
  const rq: unknown = (r.summary as { requests?: unknown }).requests;
  if (typeof rq !== 'object' || rq === null) return [];
  return Object.entries(rq).filter((e): e is [string, number] => typeof e[1] === 'number');
}

/** `--faults` values: each may hold several specs separated by `;`. */
function parseFaultPlans(values: readonly string[]): FaultRule[][] {
  return values
    .flatMap((v) => v.split(';'))
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .map((v) => parseFaultSpec(v, 'faults'));
}

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
      faults: { type: 'string', multiple: true, default: [] },
      'fault-seed': { type: 'string' },
      baseline: { type: 'boolean', default: false },
      // every audit also confirms the proofs through the server's JSON Ledger API (audit --ledger-api),
      // read through the same gateway as the exchange (its faults hit the ledger reads too)
      ledger: { type: 'boolean', default: false },
      'ledger-secret': { type: 'string' },
    },
  });
  if (values.serve) {
    await serveChild(
      Number(values.traffic),
      values.pools === undefined ? undefined : Number(values.pools),
      values['ledger-secret'],
    );
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
  const faultPlans = parseFaultPlans(values.faults);
  // null = straight to the server; with --faults only when --baseline asks for the comparison
  const plans: (FaultRule[] | null)[] =
    faultPlans.length === 0 ? [null] : values.baseline ? [null, ...faultPlans] : faultPlans;
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const all: Tally[] = [];
  let accusations = 0;
  let failedRuns = 0;
  const verdicts: string[] = [];
  try {
    for (const s of SETTINGS.filter((x) => wanted.has(x.name))) {
      const ledgerSecret = values.ledger ? randomBytes(32) : null;
      const { child, origin } = await startChild(s, ledgerSecret?.toString('hex'));
      const token =
        ledgerSecret === null
          ? null
          : await formatLedgerToken({
              secret: new Uint8Array(ledgerSecret),
              user: 'soak',
              readAs: [SOAK_AUDITOR],
              expiresInSeconds: 86_400,
              nowMs: Date.now(),
            });
      // let traffic run so caches hold states older than the newest contracts
      await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
      try {
        for (const mirror of mirrors)
          for (const probe of probeModes) {
            let baselineMedian: number | undefined;
            for (const [planIndex, plan] of plans.entries()) {
              const spec = plan === null ? null : formatFaultSpec(plan);
              const label = `traffic ${s.traffic}/min${s.pools === undefined ? '' : `, +${s.pools} pools`}, ${mirror ? 'mirror' : 'no mirror'}, ${probe ? 'probe quotes' : 'no probes'}, ${spec === null ? 'no faults' : `faults ${spec}`}`;
              const t: Tally = {
                audits: 0,
                exits: new Map(),
                errors: new Map(),
                unchecked: new Map(),
                decided: 0,
                undecided: 0,
                undecidedChecks: new Map(),
                wallMs: [],
                requests: new Map(),
              };
              const mirrorPath = join(dir, `m-${s.name}-${probe}-${planIndex}.db`);
              const count =
                s.name === '3000' && values['audits-3000'] !== undefined ? Number(values['audits-3000']) : n;
              const seed = values['fault-seed'];
              const rng = seed === undefined ? undefined : createSeededRng(`${seed}/${label}`);
              const proxy: FaultProxy | null =
                plan === null
                  ? null
                  : await startFaultProxy({
                      target: origin,
                      rules: plan,
                      ...(rng === undefined ? {} : { random: () => rng.float() }),
                    });
              const base = `${proxy?.url ?? origin}/v1/public`;
              try {
                for (let i = 0; i < count; i++) {
                  const t0 = Date.now();
                  const r = await runAudit({
                    baseUrl: base,
                    mirrorPath: mirror ? mirrorPath : null,
                    probeQuotes: probe,
                    ...(token === null
                      ? {}
                      : { ledger: { baseUrl: proxy?.url ?? origin, token, party: SOAK_AUDITOR } }),
                  });
                  t.wallMs.push(Date.now() - t0);
                  const exit = exitCodeOf(r.outcome);
                  t.audits++;
                  bump(t.exits, exit);
                  for (const [k, v] of requestCounters(r)) bump(t.requests, k, v);
                  const codes: string[] = [];
                  for (const f of r.findings)
                    if (f.severity === 'error') {
                      bump(t.errors, f.code);
                      codes.push(f.code);
                    } else if (f.label === 'could-not-check') {
                      bump(t.unchecked, f.code);
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
                      if (
                        f.severity === 'error' ||
                        (values['show-undecided'] && f.label === 'could-not-check')
                      )
                        process.stdout.write(
                          `    ${f.code} ${f.pool ?? ''}: ${f.message}\n      ${JSON.stringify(f.evidence).slice(0, 4000)}\n`,
                        );
                  }
                }
              } finally {
                await proxy?.close();
              }
              all.push(t);
              const wall = [...t.wallMs].sort((a, b) => a - b);
              const wallMedian = median(wall);
              const pct = t.decided + t.undecided === 0 ? 100 : (100 * t.decided) / (t.decided + t.undecided);
              const exit2 = t.exits.get(2) ?? 0;
              const wrong = [...t.exits].reduce((a, [k, v]) => a + (k === 1 || k === 3 ? v : 0), 0);
              accusations += wrong;
              const failed = wrong > 0 || (plan === null ? exit2 > 0 : exit2 > 0.05 * t.audits);
              if (failed) failedRuns++;
              const stats = proxy?.stats();
              const injected = new Map(Object.entries(stats?.faults ?? {}).map(([k, v]) => [k, v ?? 0]));
              process.stdout.write(
                `${label}: ${t.audits} audits, exits ${[...t.exits].map(([k, v]) => `${v}×${k}`).join(' ')}; ` +
                  `market data decided ${pct.toFixed(2)} % (${t.decided}/${t.decided + t.undecided}` +
                  `${t.undecidedChecks.size === 0 ? '' : `; undecided ${list(t.undecidedChecks)}`}); ` +
                  `wall median ${wallMedian} ms, max ${wall[wall.length - 1]} ms; ` +
                  `errors ${list(t.errors)}; could-not-check ${list(t.unchecked)}\n` +
                  (stats === undefined
                    ? ''
                    : `  proxy: ${stats.requests} requests, faults injected ${list(injected)}` +
                      `${stats.upstreamErrors === 0 ? '' : `, server unreachable ×${stats.upstreamErrors}`}\n`) +
                  (t.requests.size === 0
                    ? ''
                    : `  auditor requests (summed): ${[...t.requests].map(([k, v]) => `${k} ${v}`).join(', ')}\n`) +
                  (plan === null || baselineMedian === undefined
                    ? ''
                    : `  wall ratio with/without faults (medians): ${(wallMedian / baselineMedian).toFixed(2)}\n`),
              );
              if (plan === null) baselineMedian = wallMedian;
              verdicts.push(
                `${failed ? 'FAIL' : 'ok  '} ${label}: exits ${[...t.exits].map(([k, v]) => `${v}×${k}`).join(' ')}`,
              );
            }
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
  const nonZero = all.reduce((a, t) => a + t.audits - (t.exits.get(0) ?? 0), 0);
  for (const v of verdicts) process.stdout.write(`${v}\n`);
  process.stdout.write(
    `total: ${total} audits, ${nonZero} with a non-zero exit, ${accusations} exit 1 or 3; ` +
      `${failedRuns} combination${failedRuns === 1 ? '' : 's'} off target\n`,
  );
  process.exitCode = failedRuns === 0 ? 0 : 1;
}

await main().catch((e: unknown) => {
  // a malformed option (e.g. a --faults spec) is one line, not a stack
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(`soak: ${e.shortMessage}\n`);
  process.exitCode = 2;
});
