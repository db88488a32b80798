/**
 * The reads a schema migration must leave unchanged (not a test file): a small series of snapshots
 * (`snapshotOf`: four pools changing contracts at different rates, a stale state, a pool without
 * state) and `readAll`, every read of the store that involves contracts, observations, bodies or
 * the incremental history — compared before and after a migration on both backends.
 */
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import type { ContractBatch, MirrorStore } from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

export const T = Date.UTC(2026, 10, 1, 12, 0, 0);
export const POOL_IDS = ['1000', '1001', '1002', '1003'];

/** snapshot `v`: pool i changes contract every (i + 1) snapshots; in v3 pool 1000's state is stale, in v4 pool 1002 has none */
export function snapshotOf(v: number): ApiSnapshot {
  const ps: FixturePool[] = POOL_IDS.map((poolId, i) => {
    const gen = Math.floor(v / (i + 1));
    return {
      poolId,
      contractId: fixtureContractId(i * 1000 + gen),
      reserveA: `${100 + gen}.0000000000`,
      reserveB: `${200 - gen}.5000000000`,
      createdAtMs: T + gen * (i + 1) * 60_000 + i,
    };
  });
  const s = makeSnapshot(T + v * 60_000, ps);
  if ((v !== 3 && v !== 4) || !s.poolsState.ok) return s;
  const state = s.poolsState.value.data.pools.flatMap((p) =>
    v === 4 && p.pool_id === '1002'
      ? []
      : [v === 3 && p.pool_id === '1000' ? { ...p, contract_id: fixtureContractId(7) } : p],
  );
  return { ...s, poolsState: { ok: true, value: { data: { ...s.poolsState.value.data, pools: state } } } };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A batch without its row keys (the PostgreSQL migration numbers existing rows afresh). */
const withoutKeys = ({ contractKeys: _, ...b }: ContractBatch): Omit<ContractBatch, 'contractKeys'> => b;

export async function readAll(m: MirrorStore): Promise<unknown> {
  const latest = await m.readLatestObservations();
  const ranges = await collect(m.iterateContractKeyRanges({}, 3));
  return {
    latest,
    pools: await Promise.all(POOL_IDS.map((p) => m.readPoolHistory(p))),
    history: [...(await m.readObservationsForHistoryChecks({ limitPerPool: Number.MAX_SAFE_INTEGER }))],
    bounded: [...(await m.readObservationsForHistoryChecks({ limitPerPool: 2 }))],
    past: await m.readHistoryPast(new Map(latest.map((o) => [o.poolId, o.contractId ?? ''])), T + 3 * 60_000),
    points: await collect(m.iterateObservations()),
    batches: (await collect(m.iterateContractBatches({}, 3))).map(withoutKeys),
    byKey: (await Promise.all(ranges.map((r) => m.readContractBatch(r)))).map(withoutKeys),
    pools2: await m.readContractPools([fixtureContractId(0), fixtureContractId(1001), 'absent']),
    contracts: await m.countContracts(),
    // every column but the wall-clock time of recording
    snapshots: (await m.readSnapshots()).map(({ recordedAtMs: _r, ...x }) => x),
    bodies: await Promise.all(
      Array.from({ length: 11 }, (_x, v) => snapshotOf(v).raw.map((r) => r.sha256))
        .flat()
        .map((h) => m.readResponseBody(h)),
    ),
  };
}

/** SQLite: takes the mirror back to schema 9 (no archive tables). */
const SQLITE_BACK_TO_9 = [
  'DROP TABLE archive_contract_ids',
  'DROP TABLE archive_contract_chunks',
  'DROP TABLE archive_observation_chunks',
  'DROP TABLE archive_state',
  'DELETE FROM migrations WHERE version = 10',
];

/** SQLite: takes the mirror back to schema 8 (`pool_contracts_ledger` over every row, nothing settled). */
const SQLITE_BACK_TO_8 = [
  ...SQLITE_BACK_TO_9,
  'DROP INDEX pool_contracts_unsettled',
  'ALTER TABLE pool_contracts DROP COLUMN settled',
  'CREATE INDEX pool_contracts_ledger ON pool_contracts (pool_id, first_ledger_created_at_ms)',
  'ALTER TABLE history_state DROP COLUMN settled_below_ms',
  'DELETE FROM migrations WHERE version = 9',
];

/**
 * SQLite: takes the mirror back to schema 7 (bodies unique by digest and referenced by it,
 * `observations_pool`). Run outside a transaction: foreign keys are off while tables are rebuilt.
 */
export const SQLITE_BACK_TO_7 = [
  ...SQLITE_BACK_TO_8,
  'PRAGMA foreign_keys = OFF',
  `CREATE TABLE bodies_v7 (
     id INTEGER PRIMARY KEY,
     sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
     size INTEGER NOT NULL,
     body BLOB NOT NULL
   )`,
  'INSERT INTO bodies_v7 (id, sha256, size, body) SELECT min(id), sha256, size, body FROM bodies GROUP BY sha256',
  `CREATE TABLE responses_v7 (
     snapshot_id INTEGER NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     url TEXT NOT NULL,
     request_body TEXT,
     status INTEGER NOT NULL,
     content_type TEXT,
     body_sha256 TEXT NOT NULL REFERENCES bodies (sha256),
     started_at_ms INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL,
     PRIMARY KEY (snapshot_id, seq)
   ) WITHOUT ROWID`,
  `INSERT INTO responses_v7 SELECT snapshot_id, seq, method, url, request_body, status, content_type, body_sha256,
     started_at_ms, duration_ms FROM responses`,
  'DROP TABLE responses',
  'DROP TABLE bodies',
  'ALTER TABLE bodies_v7 RENAME TO bodies',
  'ALTER TABLE responses_v7 RENAME TO responses',
  'DROP INDEX observations_period',
  'CREATE INDEX observations_pool ON observations (pool_id, observed_at_ms)',
  'DELETE FROM migrations WHERE version = 8',
  'PRAGMA foreign_keys = ON',
];

/**
 * PostgreSQL: takes the database back to schema 6 (`contracts_pool`; `pool_contracts` keyed by pool
 * first); versions 8–10 are empty in PostgreSQL and applied again with 7.
 */
export const PG_BACK_TO_6 = [
  'CREATE INDEX contracts_pool ON contracts (pool_id, created_at_ms)',
  'CREATE INDEX responses_body ON responses (body_sha256)',
  'ALTER TABLE pool_contracts DROP CONSTRAINT pool_contracts_pkey, ADD PRIMARY KEY (pool_id, contract_key)',
  'DELETE FROM migrations WHERE version BETWEEN 7 AND 10',
];
