/**
 * DAR loading and V12 verification cost (docs/protocol/dar-format.md; docs/protocol/contract-id.md §6.4).
 *   1. cold DAR load: a fresh child process per run (no package cache, nothing warmed up) loads
 *      one DAR with loadDarFile and reports the wall time of that call alone (median of 5);
 *   2. warm DAR load in this process (no cache; median of 10) and with a package cache hit;
 *   3. V12 verifications/s with a DAR-loaded environment vs V11 verifications/s (CPU time per call).
 * Run: npx tsx bench/dar.bench.ts      (needs ../shared/dars; exits 0 with a note when absent)
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HashContext } from '../src/core/hash/hash-context.js';
import { verifyContractId } from '../src/core/hash/verify-contract-id.js';
import { createTypeEnv } from '../src/core/types/type-env.js';
import { loadDarFile } from '../src/io/files/dar-file.js';
import { sha256Node } from '../src/io/node-sha256.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../test/helpers/shared.js';
import { loadContractIdVectors } from '../test/helpers/vectors.js';

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const dar = await loadDarFile(process.argv[3]!);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  process.stdout.write(
    JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, packages: dar.packages.length }),
  );
  process.exit(0);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** µs of CPU time per call. */
function timeIt(fn: () => void, minMs = 500): number {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const start = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    const d = process.cpuUsage(start);
    elapsed = (d.user + d.system) / 1000;
  }
  return (elapsed * 1000) / n;
}

const dir = sharedDarsDir();
if (dir === null) {
  console.log(`dar bench skipped: ${SHARED_DARS_SKIP_REASON}`);
  process.exit(0);
}
console.log(`node ${process.version}`);
console.log('DAR                          dalfs  cold wall ms  cold CPU ms  warm wall ms  cached wall ms');
console.log(
  '                                   (fresh child process, median of 5)  (in process, median of 10)',
);
const envPackages = [];
for (const f of ['splice-amulet-0.1.14.dar', 'splice-amulet-0.1.17.dar']) {
  const path = join(dir, f);
  const cold: number[] = [];
  const coldCpu: number[] = [];
  let packages = 0;
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, [...process.execArgv, self, '--child', path], {
      encoding: 'utf8',
    });
    const r = JSON.parse(out) as { ms: number; cpuMs: number; packages: number };
    cold.push(r.ms);
    coldCpu.push(r.cpuMs);
    packages = r.packages;
  }
  const warm: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await loadDarFile(path);
    warm.push(performance.now() - t0);
  }
  const cache = new Map();
  const dar = await loadDarFile(path, { cache });
  const t0 = performance.now();
  await loadDarFile(path, { cache });
  const cached = performance.now() - t0;
  envPackages.push(...dar.packages.map((p) => p.types));
  console.log(
    `${f.padEnd(28)} ${String(packages).padStart(5)}  ${median(cold).toFixed(1).padStart(12)}  ${median(coldCpu).toFixed(1).padStart(11)}  ${median(warm).toFixed(1).padStart(12)}  ${cached.toFixed(1).padStart(14)}`,
  );
}

const env = createTypeEnv(envPackages);
const blobs = loadContractIdVectors().blobVectors;
const v11 = blobs.filter((b) => b.cantonContractIdVersion.endsWith('V11'));
const v12 = blobs.filter((b) => b.typedCreateArgForV12 !== undefined);
console.log('\ncontract                         version  µs/verify  verifies/s');
const perVersion: Record<string, number[]> = { V11: [], V12: [] };
// the builder, caches and scratch repeated verifications share (held by the caller)
const context = new HashContext();
for (const b of [...v11, ...v12]) {
  const version = b.cantonContractIdVersion.endsWith('V11') ? 'V11' : 'V12';
  const r = verifyContractId({
    contractId: b.contractId,
    blob: b.createdEventBlobBase64,
    types: env,
    sha256: sha256Node,
    context,
  });
  if (!r.ok) throw new Error(`${b.name} did not verify: ${JSON.stringify(r.reasons)}`);
  const us = timeIt(() => {
    verifyContractId({
      contractId: b.contractId,
      blob: b.createdEventBlobBase64,
      types: env,
      sha256: sha256Node,
      context,
    });
  });
  perVersion[version]!.push(us);
  console.log(
    `${b.name.padEnd(32)} ${version.padEnd(8)} ${us.toFixed(1).padStart(9)}  ${Math.round(1e6 / us)
      .toString()
      .padStart(10)}`,
  );
}
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `\nV12 (DAR-typed) mean ${avg(perVersion.V12!).toFixed(1)} µs vs V11 mean ${avg(perVersion.V11!).toFixed(1)} µs per contract: ` +
    `${(avg(perVersion.V12!) / avg(perVersion.V11!)).toFixed(2)}× (goal ≤ 2×)`,
);
