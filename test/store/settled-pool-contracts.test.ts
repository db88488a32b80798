/**
 * Settled pool contracts (SQLite schema 9, src/io/store/settled-contracts.ts): the audit's read of a
 * pool's recent contracts and its two newest verified ones before the market horizon goes through
 * a partial index of the unsettled rows only. Against the oracle — the same read with every row
 * unsettled, i.e. the schema-8 index over all rows — it must give exactly the same HistoryPast for
 * every horizon at or after the watermark, over seeded random recordings with late-observed
 * contracts, unverified and re-verified contracts (both ways), contracts reappearing, and snapshots
 * recorded out of order; before the watermark it declines (the audit reads the whole history).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKET_STATE_HORIZON_MS } from '../../src/core/audit/market-time.js';
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import type { ContractVerificationInput } from '../../src/io/store/index.js';
import { type Mirror, openMirror } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { computeSettleWatermark, SETTLE_SLACK_MS } from '../../src/io/store/settled-contracts.js';
import { readHistoryPast } from '../../src/io/store/sqlite/apply-history.js';
import { wrapSqliteMirror } from '../../src/io/store/sqlite-store.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const POOLS = 6;
const SNAPSHOTS = 48;

let dir: string;
let mirror: Mirror;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'settled-'));
  mirror = openMirror(join(dir, 'm.db'));
});
afterEach(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

/** readHistoryPast as the schema-8 index answered it: every row unsettled, rolled back after. */
function oracle(current: ReadonlyMap<string, string>, horizonMs: number): unknown {
  const db = mirrorDb(mirror);
  db.exec('SAVEPOINT oracle');
  try {
    db.exec('UPDATE pool_contracts SET settled = 0');
    return readHistoryPast(mirror, current, horizonMs);
  } finally {
    db.exec('ROLLBACK TO oracle');
    db.exec('RELEASE oracle');
  }
}

function watermark(): number | null {
  return mirrorDb(mirror).prepare('SELECT settled_below_ms FROM history_state').pluck().get() as
    | number
    | null;
}

function settledRows(): number {
  return mirrorDb(mirror)
    .prepare('SELECT count(*) FROM pool_contracts WHERE settled = 1')
    .pluck()
    .get() as number;
}

/** The snapshot with the ledger time of the contracts marked `badTime` replaced by text that does not parse. */
function withBadTimes(
  s: ApiSnapshot,
  minted: ReadonlyMap<string, { readonly badTime: boolean }>,
): ApiSnapshot {
  if (!s.proofsBefore.ok) return s;
  const data = s.proofsBefore.value.data;
  const pools = data.pools.map((p) =>
    minted.get(p.reserve_contract.contract_id)?.badTime === true
      ? { ...p, reserve_contract: { ...p.reserve_contract, ledger_created_at: 'not-a-time' } }
      : p,
  );
  const proofs = { ok: true as const, value: { ...s.proofsBefore.value, data: { ...data, pools } } };
  return { ...s, proofsBefore: proofs, proofsAfter: proofs };
}

describe('settled pool contracts', () => {
  it.each(['a', 'b', 'c'])(
    'the audit read through the unsettled rows equals the full index at every horizon from the watermark on (seed %s)',
    async (seed) => {
      const rng = createSeededRng(`settled-${seed}`);
      const store = wrapSqliteMirror(mirror);
      /** per pool: its contract generation; every contract ever minted, with its ledger time */
      const gen = Array.from({ length: POOLS }, () => 0);
      const minted = new Map<string, { poolId: string; createdAtMs: number; badTime: boolean }>();
      let compared = 0;
      let newestStart = 0;
      for (let v = 0; v < SNAPSHOTS; v++) {
        // every 11th snapshot is recorded out of order (its time lies before the newest recorded)
        const late = v > 0 && v % 11 === 0;
        const at = late ? newestStart - 90_000 - rng.int(120_000) : T + v * 30_000 + rng.int(5_000);
        newestStart = Math.max(newestStart, at);
        const list: FixturePool[] = [];
        const verify = new Map<string, ContractVerificationInput>();
        for (let i = 0; i < POOLS; i++) {
          const poolId = String(1000 + i);
          const roll = rng.float();
          // a new contract (created up to 6 minutes before it is first seen), or an older one again
          if (roll < 0.55) gen[i] = (gen[i] as number) + 1;
          else if (roll < 0.62 && (gen[i] as number) > 1) gen[i] = (gen[i] as number) - 1 - rng.int(2);
          const contractId = fixtureContractId(i * 1000 + Math.max(0, gen[i] as number));
          let m = minted.get(contractId);
          if (m === undefined) {
            // one in ten is published with a ledger time that does not parse (stored without one)
            m = { poolId, createdAtMs: at - rng.int(6 * 60_000), badTime: rng.float() < 0.1 };
            minted.set(contractId, m);
          }
          const p: FixturePool = {
            poolId,
            contractId,
            reserveA: `${100 + (gen[i] as number)}.0000000000`,
            reserveB: `${200 - (gen[i] as number)}.5000000000`,
            createdAtMs: m.createdAtMs,
          };
          list.push(p);
          // verified most of the time; sometimes unverified, and a contract's status can change
          const r = rng.float();
          if (r < 0.75)
            verify.set(contractId, {
              status: 'verified',
              decoded: {
                reserveA: p.reserveA,
                reserveB: p.reserveB,
                totalLpSupply: '1000.0000000000',
                createdAtMicros: BigInt(p.createdAtMs) * 1000n,
              },
            });
          else if (r < 0.9) verify.set(contractId, { status: 'could-not-check', reason: 'no types' });
        }
        await store.recordSnapshot(withBadTimes(makeSnapshot(at, list), minted), verify, { now: () => at });

        const w = watermark();
        expect(w).toBe(computeSettleWatermark(newestStart));
        const current = new Map(list.map((p) => [p.poolId, p.contractId]));
        const horizons = [
          w as number,
          (w as number) + 1,
          newestStart - MARKET_STATE_HORIZON_MS,
          newestStart + rng.int(10 * 60_000) - MARKET_STATE_HORIZON_MS,
          newestStart + 3_600_000,
        ];
        for (const h of horizons) {
          expect(readHistoryPast(mirror, current, h)).toEqual(oracle(current, h));
          compared++;
        }
        // a horizon before the watermark: the caller must read the whole history
        expect(readHistoryPast(mirror, current, (w as number) - 1)).toBeNull();
      }
      expect(compared).toBe(SNAPSHOTS * 5);
      // rows without a ledger time exist, and none of them is in the index
      const db = mirrorDb(mirror);
      expect(
        db
          .prepare('SELECT count(*) FROM pool_contracts WHERE first_ledger_created_at_ms IS NULL')
          .pluck()
          .get(),
      ).toBeGreaterThan(0);
      expect(
        db
          .prepare(
            'SELECT count(*) FROM pool_contracts WHERE first_ledger_created_at_ms IS NULL AND settled = 0',
          )
          .pluck()
          .get(),
      ).toBe(0);
      // the index really is small: most rows are settled
      const all = mirrorDb(mirror).prepare('SELECT count(*) FROM pool_contracts').pluck().get() as number;
      expect(settledRows()).toBeGreaterThan(all / 2);
    },
  );

  it('a migrated mirror starts unsettled and is settled by its next snapshot; the watermark keeps the slack', async () => {
    const store = wrapSqliteMirror(mirror);
    const list = (v: number): FixturePool[] =>
      Array.from({ length: 3 }, (_x, i) => ({
        poolId: String(1000 + i),
        contractId: fixtureContractId(i * 1000 + v),
        reserveA: `${100 + v}.0000000000`,
        reserveB: '200.0000000000',
        createdAtMs: T + v * 60_000,
      }));
    for (let v = 0; v < 10; v++) await store.recordSnapshot(makeSnapshot(T + v * 60_000, list(v)));
    // none verified: every row before the watermark settles
    const w = T + 9 * 60_000 - MARKET_STATE_HORIZON_MS - SETTLE_SLACK_MS;
    expect(watermark()).toBe(w);
    const before = mirrorDb(mirror)
      .prepare('SELECT count(*) FROM pool_contracts WHERE first_ledger_created_at_ms < ?')
      .pluck()
      .get(w) as number;
    expect(settledRows()).toBe(before);
    // as after migration 9: nothing settled, no watermark — reads go through the index
    mirrorDb(mirror).exec(
      'UPDATE pool_contracts SET settled = 0; UPDATE history_state SET settled_below_ms = NULL',
    );
    const current = new Map(list(9).map((p) => [p.poolId, p.contractId]));
    expect(readHistoryPast(mirror, current, T)).toEqual(oracle(current, T));
    await store.recordSnapshot(makeSnapshot(T + 10 * 60_000, list(10)));
    expect(watermark()).toBe(w + 60_000);
    expect(settledRows()).toBeGreaterThan(before);
  });
});
