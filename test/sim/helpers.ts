/** Shared setup of the simulator tests: an in-memory (or file) ledger with a seeded RNG and a manual clock. */
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { createManualClock, type ManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket, type SeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb, type ServerDb } from '../../src/sim/store/connection.js';

export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
export const SEED_MARKET: SeedMarket = loadSeedMarket();
export const TRADER = 'alice::12200000000000000000000000000000000000000000000000000000000000000001';

export interface TestLedger {
  readonly db: ServerDb;
  readonly clock: ManualClock;
  readonly exchange: SimulatedExchange;
}

export function openTestLedger(
  o: {
    seed?: string;
    version?: ContractIdVersion;
    path?: string;
    extraPools?: number;
    clock?: ManualClock;
    auditorParty?: string;
  } = {},
): TestLedger {
  const db = openServerDb(o.path ?? ':memory:');
  const clock = o.clock ?? createManualClock(T0);
  const exchange = createExchange({
    db,
    clock,
    rng: createSeededRng(o.seed ?? 'test-seed'),
    seedMarket: SEED_MARKET,
    ...(o.version === undefined ? {} : { contractIdVersion: o.version }),
    ...(o.extraPools === undefined ? {} : { extraPools: o.extraPools }),
    ...(o.auditorParty === undefined ? {} : { auditorParty: o.auditorParty }),
  });
  return { db, clock, exchange };
}

export function tokenBySymbol(ex: SimulatedExchange, symbol: string): { admin: string; id: string } {
  const t = ex.tokens().find((x) => x.symbol === symbol);
  if (t === undefined) throw new Error(`no token ${symbol}`);
  return { admin: t.admin, id: t.id };
}
