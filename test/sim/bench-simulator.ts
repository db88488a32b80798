/**
 * Simulator measurements for docs/bench/simulator.md (not a test; run with
 * `npx tsx test/simulator/bench-simulator.ts [v10,v11,v12]`): genesis of the seed market + 1000
 * generated pools per contract-ID version, the cost of one transfer (prefillHistory) on that
 * market and on the plain seed market, and a 24 h prefill at 2 swaps/min. Wall and CPU time
 * (process.cpuUsage, less sensitive to other load on the machine) are both reported.
 */

import { createManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { SEED_MARKET, T0 } from './helpers.js';

type Version = 'v10' | 'v11' | 'v12';
const open = (version: Version, extraPools: number) =>
  createExchange({
    db: openServerDb(':memory:'),
    clock: createManualClock(T0),
    rng: createSeededRng('bench'),
    seedMarket: SEED_MARKET,
    extraPools,
    contractIdVersion: version,
  });

function measure<T>(fn: () => T): { value: T; wallMs: number; cpuMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

const versions = (process.argv[2] ?? 'v10,v11,v12').split(',') as Version[];
open('v12', 0).prefillHistory({ duration: 600_000, swapsPerMinute: 10 }); // warm-up
for (const v of versions) {
  const g = measure(() => open(v, 1000));
  const ex = g.value;
  const big = measure(() => ex.prefillHistory({ duration: 3600_000, swapsPerMinute: 20 }));
  const n = big.value.executed + big.value.refunded;
  const small = measure(() => open(v, 0).prefillHistory({ duration: 3600_000, swapsPerMinute: 20 }));
  const m = small.value.executed + small.value.refunded;
  console.log(
    `${v}: genesis ${ex.pools().length} pools ${g.wallMs.toFixed(0)} ms wall / ${g.cpuMs.toFixed(0)} ms cpu; ` +
      `per transfer: 1008 pools ${(big.wallMs / n).toFixed(2)} ms wall / ${(big.cpuMs / n).toFixed(2)} ms cpu (${n}), ` +
      `8 pools ${(small.wallMs / m).toFixed(2)} / ${(small.cpuMs / m).toFixed(2)} ms (${m})`,
  );
}
const day = measure(() => open('v12', 0).prefillHistory({ duration: 24 * 3600_000, swapsPerMinute: 2 }));
console.log(
  `v12 seed market, prefill 24 h at 2 swaps/min: ${day.value.executed} executed + ${day.value.refunded} refunded in ` +
    `${day.wallMs.toFixed(0)} ms wall / ${day.cpuMs.toFixed(0)} ms cpu`,
);
