/**
 * `verify-contract --batch` end to end (docs/cli.md "verify-contract --batch"): the built CLI
 * (`dist/`, run `npm run build` first) as a user runs it — a fresh process, the DARs loaded, the
 * file read and parsed line by line, every contract verified, one line printed per contract — timed
 * by wall clock, median of 3 runs; contracts/s = contracts / that time (start-up and DAR loading
 * included).
 *
 * The input is a JSON Lines file of real V12 contracts typed from several DARs (the V12 blob vectors
 * of test/vectors, each appearing many times, typed by splice-amulet 0.1.17 from ../shared/dars)
 * and freshly minted V12 reserve contracts of the bundled reference server (typed by its bundled
 * types, no flag), mixed half and half; the same contracts are also run as one Scan-API-like
 * JSON document. Two DAR sets are passed with --dar: the five splice-amulet releases (0.1.14 to
 * 0.1.19), and every DAR of ../shared/dars (13, 512 dalfs, 67 distinct packages).
 *
 * Run: npm run bench:batch   (needs ../shared/dars; exits 0 with a note when absent)
 * Optional: BATCH_N=3500 contracts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBase64 } from '../src/core/codec/bytes.js';
import { sha256Node } from '../src/io/node-sha256.js';
import { mintReserveContract } from '../src/sim/mint.js';
import { createSeededRng } from '../src/sim/rng.js';
import { repoRoot, SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../test/helpers/shared.js';
import { loadContractIdVectors } from '../test/helpers/vectors.js';

const darsDir = sharedDarsDir();
if (darsDir === null) {
  process.stdout.write(`skipped: ${SHARED_DARS_SKIP_REASON}\n`);
  process.exit(0);
}
const N = Number(process.env.BATCH_N ?? 3500);
const allDars = readdirSync(darsDir)
  .filter((f) => f.endsWith('.dar'))
  .sort()
  .map((f) => join(darsDir, f));
const darSets = [
  { name: 'splice-amulet DARs', dars: allDars.filter((d) => /splice-amulet-/.test(d)) },
  { name: 'all DARs', dars: allDars },
];
const real = loadContractIdVectors().blobVectors.filter((v) => v.contractId.slice(66, 70) === 'ca12');
const rng = createSeededRng('batch-bench');
const tok = (id: string) => ({ admin: `${id.toLowerCase()}::1220aa`, id });

const entries: { contract_id: string; created_event_blob: string }[] = [];
for (let k = 0; entries.length < N; k++) {
  if (k % 2 === 0) {
    const v = real[(k >> 1) % real.length]!;
    entries.push({ contract_id: v.contractId, created_event_blob: v.createdEventBlobBase64 });
    continue;
  }
  const m = mintReserveContract({
    fields: {
      operator: 'operator::1220aa',
      poolId: `pool-${k}`,
      tokenA: tok('CC'),
      tokenB: tok(`T${k % 50}`),
      reserveA: `${1_000_000 + k}.0000000000`,
      reserveB: `${2_000_000 - k}.5000000000`,
      totalLpSupply: '1000.0000000000',
      feeRate: '0.0030000000',
      sequence: BigInt(k),
      previous: null,
    },
    version: 'v12',
    createdAtMicros: 1_790_000_000_000_000n + BigInt(k),
    rng,
    sha256: sha256Node,
  });
  entries.push({ contract_id: m.contractId, created_event_blob: formatBase64(m.blob) });
}

const dir = mkdtempSync(join(tmpdir(), 'batch-bench-'));
const jsonl = join(dir, 'contracts.jsonl');
const doc = join(dir, 'scan.json');
writeFileSync(jsonl, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
writeFileSync(
  doc,
  JSON.stringify(
    { record_time: '2026-11-26T00:00:00Z', created_events: entries.map((e) => ({ ...e, template_id: 'x' })) },
    null,
    2,
  ),
);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const cli = join(repoRoot, 'bin', 'reserve-audit.js');
function run(file: string, extra: string[], darArgs: readonly string[]): { ms: number; lines: number } {
  const t0 = performance.now();
  const out = execFileSync(
    process.execPath,
    [cli, 'verify-contract', '--batch', file, ...darArgs, ...extra],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const ms = performance.now() - t0;
  const lines = out.split('\n').filter((l) => l !== '');
  if (!extra.includes('--json')) {
    const summary = lines[lines.length - 1] ?? '';
    if (!summary.startsWith(`${N} contracts: ${N} verified`)) throw new Error(`not all verified: ${summary}`);
  }
  return { ms, lines: lines.length };
}

function dartime(darArgs: readonly string[]): number {
  const t0 = performance.now();
  // an empty batch exits 2 (no contracts): only the time matters here
  spawnSync(process.execPath, [cli, 'verify-contract', '--batch', '-', ...darArgs], { input: '' });
  return performance.now() - t0;
}

const rows: string[] = [];
for (const set of darSets) {
  const darArgs = set.dars.flatMap((d) => ['--dar', d]);
  rows.push(`${set.name} (${set.dars.length}):`);
  for (const [name, file, extra] of [
    ['JSON Lines, text output', jsonl, []],
    ['JSON Lines, --json output', jsonl, ['--json']],
    ['one JSON document (Scan-like), text', doc, []],
  ] as const) {
    run(file, [...extra], darArgs); // warm the file cache
    const ms = median([0, 1, 2].map(() => run(file, [...extra], darArgs).ms));
    const rate = Math.round((N * 1000) / ms).toLocaleString('en-US');
    rows.push(
      `  ${name.padEnd(40)} ${String(Math.round(ms)).padStart(6)} ms  ${rate.padStart(7)} contracts/s`,
    );
  }
  const empty = median([0, 1, 2].map(() => dartime(darArgs)));
  rows.push(
    `  ${'start-up + loading the DARs, no contract'.padEnd(40)} ${String(Math.round(empty)).padStart(6)} ms`,
  );
}
process.stdout.write(
  `verify-contract --batch: ${N} V12 contracts (half real vectors typed by DAR, half minted reserve contracts typed by the bundled types), node ${process.version}, median of 3 wall-clock runs\n${rows.join('\n')}\n`,
);
rmSync(dir, { recursive: true, force: true });
