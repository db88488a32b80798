/**
 * A snapshot recorded out of order (docs/mirror.md "Incremental history"): two watchers of one mirror
 * whose snapshots commit in the other order, or a snapshot retried late. Builds a SQLite mirror of
 * BENCH_OOO_SNAPSHOTS (1,000) snapshots of BENCH_OOO_POOLS (200) pools, each pool a new reserve
 * contract in half of the snapshots (the fixture snapshots of the store tests), holds back every 10th
 * of the last 50 and records it three snapshots late. Prints the record time of those late snapshots
 * against the in-order ones of the same run (the floor): flat in the mirror's length when the folds
 * are stepped back (src/core/audit/history-fold-earlier.ts), growing with it when pools are re-folded.
 *
 * With BENCH_OOO_PG=1 the same runs on a throw-away PostgreSQL cluster too (test/helpers/pg-cluster.ts:
 * initdb + pg_ctl, fsync off), where two watchers writing one mirror is the documented setup.
 *
 *   npx tsx bench/mirror-out-of-order.bench.ts
 *   BENCH_OOO_PG=1 npx tsx bench/mirror-out-of-order.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ContractVerificationInput, type MirrorStore, openMirrorStore } from '../src/io/store/index.js';
import { findPgBinaries, startPgCluster } from '../test/helpers/pg-cluster.js';
import {
  type FixturePool,
  fixtureContractId,
  makeSnapshot,
  verifiedInputOf,
} from '../test/store/snapshot-fixture.js';

const POOLS = Number(process.env.BENCH_OOO_POOLS ?? 200);
const SNAPSHOTS = Number(process.env.BENCH_OOO_SNAPSHOTS ?? 1000);
const T = Date.UTC(2026, 10, 1);

/** The series of one run: each pool a new contract in about half of the snapshots. */
function makeSeries(): (atMs: number) => FixturePool[] {
  let seed = 1;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let n = 0;
  const current = new Map<string, FixturePool>();
  return (atMs) => {
    const out: FixturePool[] = [];
    for (let i = 0; i < POOLS; i++) {
      const poolId = String(1000 + i);
      let c = current.get(poolId);
      if (c === undefined || rnd() < 0.5) {
        n += 1;
        const a = 1000 + n;
        c = {
          poolId,
          contractId: fixtureContractId(n),
          reserveA: `${a}.0000000000`,
          reserveB: `${2 * a}.0000000000`,
          lp: '1000.0000000000',
          createdAtMs: atMs - 200,
        };
        current.set(poolId, c);
      }
      out.push(c);
    }
    return out;
  };
}

async function record(store: MirrorStore, atMs: number, list: readonly FixturePool[]): Promise<number> {
  const v = new Map<string, ContractVerificationInput>();
  for (const c of list) v.set(c.contractId, verifiedInputOf(c));
  const t0 = performance.now();
  await store.recordSnapshot(makeSnapshot(atMs, list), v, { now: () => atMs });
  return performance.now() - t0;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/** Builds the series into `store`, holding back every 10th of the last 50 snapshots; prints the times. */
async function run(label: string, store: MirrorStore): Promise<void> {
  const pools = makeSeries();
  const held: { atMs: number; list: FixturePool[] }[] = [];
  const late: number[] = [];
  const inOrder: number[] = [];
  for (let k = 1; k <= SNAPSHOTS; k++) {
    const atMs = T + k * 30_000;
    const list = pools(atMs);
    const tail = k > SNAPSHOTS - 50;
    if (tail && k % 10 === 0) {
      held.push({ atMs, list });
      continue;
    }
    const ms = await record(store, atMs, list);
    if (tail) inOrder.push(ms);
    const h = k % 10 === 3 ? held.shift() : undefined;
    if (h !== undefined) late.push(await record(store, h.atMs, h.list));
  }
  console.log(
    `${label}: ${POOLS} pools, ${SNAPSHOTS} snapshots: recorded late ${late.map((x) => x.toFixed(0)).join(' / ')} ms (median ${median(late).toFixed(1)}), in order median ${median(inOrder).toFixed(1)} ms (the last 45) → ×${(median(late) / median(inOrder)).toFixed(2)}`,
  );
}

console.log(`node ${process.version}; ${new Date().toISOString()}, load ${loadavg()[0]?.toFixed(2)}`);
const dir = mkdtempSync(join(tmpdir(), 'ooo-bench-'));
try {
  const sqlite = await openMirrorStore(join(dir, 'mirror.db'));
  try {
    await run('SQLite', sqlite);
  } finally {
    await sqlite.close();
  }
  if (process.env.BENCH_OOO_PG === '1') {
    const bins = findPgBinaries();
    if ('missing' in bins) console.log(`PostgreSQL skipped: ${bins.missing}`);
    else {
      const cluster = await startPgCluster(bins);
      try {
        const store = await openMirrorStore(cluster.url);
        try {
          await run('PostgreSQL', store);
        } finally {
          await store.close();
        }
      } finally {
        cluster.stop();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
