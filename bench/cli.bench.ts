/**
 * Start-up of the built CLI against `node -e 0` (docs/bench/cli.md): `--help`, `--version` and
 * `verify-contract` on one small blob (examples/iou.*), each run as a fresh process, paired with a
 * `node -e 0` run right before it (same machine, same moment), repeated; the figure is the median
 * of the paired wall-clock ratios, and the medians of the times themselves. Run `npm run build`
 * first (`npm run bench:cli` does).
 *
 * Run: npm run bench:cli     Optional: CLI_RUNS=21 pairs per command (default 15).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../test/helpers/shared.js';

const RUNS = Number(process.env.CLI_RUNS ?? 15);
const cli = join(repoRoot, 'bin', 'reserve-audit.js');
const cid = readFileSync(join(repoRoot, 'examples', 'iou.cid'), 'utf8').trim();

function wallMs(args: readonly string[], expectCode: number): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== expectCode)
    throw new Error(`${args.join(' ')} exited ${r.status}, expected ${expectCode}: ${r.stderr.toString()}`);
  return ms;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const cases: { name: string; args: string[]; target: number | null }[] = [
  { name: '--help', args: [cli, '--help'], target: 2 },
  { name: '--version', args: [cli, '--version'], target: null },
  {
    name: 'verify-contract (one blob)',
    args: [cli, 'verify-contract', '--contract-id', cid, '--blob', '@examples/iou.b64'],
    target: 2.5,
  },
];

// warm the file cache once
for (const c of cases) wallMs(c.args, 0);
const rows: string[] = [];
const baselines: number[] = [];
for (const c of cases) {
  const ratios: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const base = wallMs(['-e', '0'], 0);
    const t = wallMs(c.args, 0);
    baselines.push(base);
    times.push(t);
    ratios.push(t / base);
  }
  const r = median(ratios);
  const verdict = c.target === null ? '' : r <= c.target ? `  ≤ ${c.target}× ✓` : `  > ${c.target}× ✗`;
  rows.push(
    `${c.name.padEnd(28)} ${median(times).toFixed(0).padStart(5)} ms  ${r.toFixed(2).padStart(5)}× node -e 0${verdict}`,
  );
}
process.stdout.write(
  `CLI start-up, node ${process.version}, ${RUNS} paired runs per command (median of the ratios)\n` +
    `${'node -e 0'.padEnd(28)} ${median(baselines).toFixed(0).padStart(5)} ms\n${rows.join('\n')}\n`,
);
