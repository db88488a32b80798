/**
 * Simulator measurements for docs/bench/simulator.md (not a test; run with
 * `npx tsx test/simulator/bench-simulator.ts`): genesis of the seed market + 1000 generated pools
 * per contract-ID version, swap throughput of prefillHistory, and a 24 h prefill at 2 swaps/min.
 */
import { openServerDb } from '../../src/server/db/connection.js';
import { createManualClock } from '../../src/server/simulator/clock.js';
import { createExchange } from '../../src/server/simulator/ledger.js';
import { createSeededRng } from '../../src/server/simulator/rng.js';
import { SEED_MARKET, T0 } from './helpers.js';

const open = (version: 'v10' | 'v11' | 'v12', extraPools: number) =>
  createExchange({
    db: openServerDb(':memory:'),
    clock: createManualClock(T0),
    rng: createSeededRng('bench'),
    seedMarket: SEED_MARKET,
    extraPools,
    contractIdVersion: version,
  });

for (const v of (process.argv[2] ?? 'v10,v11,v12').split(',') as ('v10' | 'v11' | 'v12')[]) {
  open(v, 0); // warm-up
  const t0 = performance.now();
  const ex = open(v, 1000);
  const genesis = performance.now() - t0;
  const t1 = performance.now();
  const r = ex.prefillHistory({ duration: 3600_000, swapsPerMinute: 20 });
  const per = (performance.now() - t1) / (r.executed + r.refunded);
  console.log(
    `${v}: genesis ${ex.pools().length} pools ${genesis.toFixed(0)} ms; ${r.executed + r.refunded} transfers on 1008 pools, ${per.toFixed(2)} ms/transfer`,
  );
}
const ex = open('v12', 0);
const t2 = performance.now();
const r = ex.prefillHistory({ duration: 24 * 3600_000, swapsPerMinute: 2 });
console.log(
  `v12 seed market: prefill 24 h at 2 swaps/min: ${r.executed} executed, ${r.refunded} refunded in ${(performance.now() - t2).toFixed(0)} ms`,
);
