/**
 * Audit benchmarks (`npm run bench:audit`; results in docs/bench/audit.md):
 * 1. wall time of `runAudit` against the bundled server with 1,000 pools (cold: the server computes
 *    every response for the first time; warm: its response caches are filled) — goal < 2 s;
 * 2. `replay` throughput over a mirror of ≥ 100,000 stored V12 contracts — goal ≥ 30,000/s.
 * Options: BENCH_POOLS (default 1000), BENCH_CONTRACTS (default 100000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiSnapshot } from '../src/core/api/index.js';
import { DEFAULT_RESERVE_PROFILE } from '../src/core/audit/index.js';
import { runReplay } from '../src/io/audit-replay.js';
import { runAudit } from '../src/io/audit-run.js';
import { sha256Node } from '../src/io/node-sha256.js';
import { openMirror, recordSnapshot } from '../src/io/store/index.js';
import { mintReserveContract } from '../src/server/simulator/mint.js';
import { RESERVE_PACKAGE_ID } from '../src/server/simulator/reserve-template.js';
import { createSeededRng } from '../src/server/simulator/rng.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const POOLS = Number(process.env.BENCH_POOLS ?? 1000);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100_000);

async function benchAudit(): Promise<void> {
  const s = await startAuditServer({ version: 'v12', extraPools: Math.max(0, POOLS - 8), seed: 'bench' });
  try {
    const pools = s.ex.pools().filter((p) => p.active).length;
    for (const label of ['cold', 'warm', 'warm']) {
      const t = performance.now();
      const r = await runAudit({ baseUrl: s.directBase });
      const ms = performance.now() - t;
      console.log(
        `audit ${label}: ${pools} pools, outcome ${r.summary.outcome}, ${r.checks.length} checks, ${ms.toFixed(0)} ms wall; phases ${JSON.stringify(r.summary.phasesMs)} ms`,
      );
    }
  } finally {
    await s.close();
  }
}

/** A synthetic snapshot holding only proofs (what the mirror's contract table is filled from). */
function proofSnapshot(i: number, proofs: unknown[]): ApiSnapshot {
  const fail = { ok: false as const, reason: 'bench', code: 'BENCH' };
  const value = { data: { updated_at: new Date(i * 1000).toISOString(), pools: proofs } } as never;
  return {
    baseUrl: 'http://bench/v1/public',
    startedAtMs: 1_790_000_000_000 + i * 1000,
    finishedAtMs: 1_790_000_000_000 + i * 1000 + 1,
    tokens: fail,
    swapInfo: fail,
    markets: fail,
    exchangeInfo: fail,
    poolsInfo: fail,
    proofsBefore: { ok: true, value },
    poolsState: fail,
    proofsAfter: { ok: true, value },
    stats: fail,
    volume: fail,
    aggregatorPairs: fail,
    aggregatorTickers: fail,
    orderbooks: fail,
    probeQuotes: null,
    raw: [],
  };
}

async function benchReplay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
  const path = join(dir, 'mirror.sqlite');
  const mirror = openMirror(path);
  const rng = createSeededRng('bench-replay');
  const perSnapshot = 1000;
  const t0 = performance.now();
  const tok = (id: string) => ({ admin: `${id.toLowerCase()}::1220aa`, id });
  for (let snap = 0; snap * perSnapshot < CONTRACTS; snap++) {
    const proofs: unknown[] = [];
    for (let k = 0; k < perSnapshot; k++) {
      const n = snap * perSnapshot + k;
      const ra = `${1_000_000 + snap * 7 + k}.0000000000`;
      const rb = `${2_000_000 - snap * 3}.5000000000`;
      const lp = '1000.0000000000';
      const at = BigInt(1_790_000_000_000 + snap * 1000) * 1000n + BigInt(k);
      const m = mintReserveContract({
        fields: {
          operator: 'operator::1220aa',
          poolId: `pool-${k}`,
          tokenA: tok('CC'),
          tokenB: tok(`T${k}`),
          reserveA: ra,
          reserveB: rb,
          totalLpSupply: lp,
          feeRate: '0.0030000000',
          sequence: BigInt(snap),
          previous: null,
        },
        version: 'v12',
        createdAtMicros: at,
        rng,
        sha256: sha256Node,
      });
      proofs.push({
        pool_id: `pool-${k}`,
        pool_cid: `pool-${k}`,
        token_a_instrument: tok('CC'),
        token_b_instrument: tok(`T${k}`),
        reserve_contract: {
          contract_id: m.contractId,
          update_id: `u${n}`,
          template: {
            package_id: RESERVE_PACKAGE_ID,
            package_name: 'amm-pools',
            module_name: 'Amm.Pool',
            entity_name: 'PoolReserve',
          },
          ledger_created_at: new Date(Number(at / 1000n))
            .toISOString()
            .replace('Z', `${(at % 1000n).toString().padStart(3, '0')}+00:00`),
          created_event_blob: Buffer.from(m.blob).toString('base64'),
          reserve_a: ra,
          reserve_b: rb,
          total_lp_supply: lp,
        },
      });
    }
    recordSnapshot(mirror, proofSnapshot(snap, proofs));
  }
  mirror.close();
  console.log(`mirror built: ${CONTRACTS} contracts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const t = performance.now();
  const r = await runReplay({
    mirrorPath: path,
    profile: DEFAULT_RESERVE_PROFILE,
    progressEvery: Number(process.env.BENCH_EVERY ?? 25_000),
    onProgress: (n, rate) => console.log(`  replayed ${n} (${Math.round(rate)}/s)`),
  });
  const s = (performance.now() - t) / 1000;
  console.log(
    `replay: ${r.summary.contracts} contracts (verified ${r.summary.verified}), ${r.summary.observations} observations, outcome ${r.summary.outcome}, ${s.toFixed(2)} s wall, ${r.summary.contractsPerSecond} contracts/s (whole run); phases ${JSON.stringify(r.summary.phasesMs)} ms; contract phase ${Math.round(r.summary.contracts / (r.summary.phasesMs.contracts / 1000))} contracts/s`,
  );
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${path}`);
  else rmSync(dir, { recursive: true, force: true });
}

console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
if (process.env.BENCH_SKIP_AUDIT !== '1') await benchAudit();
if (process.env.BENCH_SKIP_REPLAY !== '1') await benchReplay();
