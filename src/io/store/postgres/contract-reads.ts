/**
 * The streaming reads of a PostgreSQL mirror (replay): contracts in replay order (ledger ms, then
 * contract ID) as batches, their key ranges, one batch by key range, and the observations of a
 * period ordered by pool, time, snapshot — the same orders and batch shapes as
 * ../contract-batches.ts and ../lookups.ts (SQLite). Each stream is one REPEATABLE READ, READ ONLY
 * transaction on a client of its own, paged by key (`(created_at_ms, contract_id) > last`), so it
 * sees one consistent mirror while watchers keep writing, and never holds a whole table in memory.
 */
import type pg from 'pg';
import {
  CONTRACT_BATCH_COLUMNS,
  type ContractBatch,
  type ContractKey,
  type ContractKeyRange,
  createKeyRangeCutter,
  packContractBatch,
} from '../contract-batches.js';
import {
  type ContractIdentity,
  OBSERVATION_KEY_COLUMNS,
  type ObservationKeyRow,
  type ObservationPoint,
  type ObservationRange,
  observationPointOfRow,
  toObservationKeyRow,
} from '../lookups.js';
import { buildContractIdSql, buildLedgerCreatedAtSql } from '../observation-columns.js';
import { type ContractRange, toRangeBounds } from '../queries.js';
import { type PgMirror, queryRows, toStoreError } from './connection.js';

const PAGE = 10_000;

/** Runs `body` in a read-only snapshot transaction on its own client; yields what it yields. */
async function* inSnapshot<T>(
  h: PgMirror,
  what: string,
  body: (c: pg.PoolClient) => AsyncGenerator<T, void, undefined>,
): AsyncGenerator<T, void, undefined> {
  let c: pg.PoolClient;
  try {
    c = await h.pool.connect();
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', what, e);
  }
  let broken: Error | undefined;
  let open = false;
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    yield* body(c);
    await c.query('COMMIT');
    open = false;
  } catch (e) {
    broken = e instanceof Error ? e : new Error(String(e));
    throw toStoreError(h, 'STORE_CORRUPT', what, e);
  } finally {
    if (open && broken === undefined)
      await c.query('ROLLBACK').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
    c.release(broken);
  }
}

function rangeFilter(range: ContractRange, params: unknown[]): string {
  params.push(...toRangeBounds(range));
  let w = `created_at_ms >= $${params.length - 1} AND created_at_ms < $${params.length}`;
  if (range.poolId !== undefined) {
    params.push(range.poolId);
    w += ` AND pool_id = $${params.length}`;
  }
  return w;
}

/** Pages of rows in (created_at_ms, contract_id) order; each row ends with those two keys. */
async function* pageContracts(
  c: pg.PoolClient,
  cols: string,
  range: ContractRange,
  page: number,
): AsyncGenerator<unknown[][], void, undefined> {
  let after: ContractKey | null = null;
  for (;;) {
    const params: unknown[] = [];
    let where = rangeFilter(range, params);
    if (after !== null) {
      params.push(after[0], after[1]);
      where += ` AND (created_at_ms, contract_id) > ($${params.length - 1}, $${params.length})`;
    }
    params.push(page);
    const rows = await queryRows(
      c,
      `SELECT ${cols}, created_at_ms, contract_id FROM contracts WHERE ${where}
       ORDER BY created_at_ms, contract_id LIMIT $${params.length}`,
      params,
    );
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < page) return;
    after = [Number(last[last.length - 2]), String(last[last.length - 1])];
  }
}

/** The contracts in `range` as batches of at most `batchSize`, in replay order. */
export function iteratePgContractBatches(
  h: PgMirror,
  range: ContractRange = {},
  batchSize = 512,
): AsyncGenerator<ContractBatch, void, undefined> {
  return inSnapshot(h, 'iterateContractBatches', async function* (c) {
    for await (const rows of pageContracts(c, CONTRACT_BATCH_COLUMNS, range, batchSize))
      yield packContractBatch(rows);
  });
}

/** The key ranges of consecutive batches of at most `batchSize` contracts (keys only). */
export function iteratePgContractKeyRanges(
  h: PgMirror,
  range: ContractRange = {},
  batchSize = 512,
): AsyncGenerator<ContractKeyRange, void, undefined> {
  return inSnapshot(h, 'iterateContractKeyRanges', async function* (c) {
    const cut = createKeyRangeCutter(batchSize);
    for await (const rows of pageContracts(c, '1', range, Math.max(PAGE, batchSize)))
      for (const r of rows) {
        const done = cut.add([Number(r[1]), String(r[2])]);
        if (done !== null) yield done;
      }
    const rest = cut.end();
    if (rest !== null) yield rest;
  });
}

/** The contracts of one key range as a batch. */
export async function readPgContractBatch(h: PgMirror, r: ContractKeyRange): Promise<ContractBatch> {
  try {
    const rows = await queryRows(
      h.pool,
      `SELECT ${CONTRACT_BATCH_COLUMNS} FROM contracts
       WHERE (created_at_ms, contract_id) >= ($1, $2) AND (created_at_ms, contract_id) <= ($3, $4)
       ORDER BY created_at_ms, contract_id`,
      [r.first[0], r.first[1], r.last[0], r.last[1]],
    );
    return packContractBatch(rows);
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', 'readContractBatch', e);
  }
}

/**
 * Pages of `columns` (seven of them) and the snapshot ID of the observations of a period, ordered by
 * pool, time, snapshot, read by keyset (the last row's pool, time and snapshot start the next page).
 */
async function* pageObservationRows(
  c: pg.PoolClient,
  range: ObservationRange,
  columns: string,
): AsyncGenerator<unknown[][], void, undefined> {
  let after: [string, number, number] | null = null;
  for (;;) {
    const params: unknown[] = toRangeBounds(range);
    let where = 'o.observed_at_ms >= $1 AND o.observed_at_ms < $2';
    if (after !== null) {
      params.push(...after);
      where += ' AND (o.pool_id, o.observed_at_ms, o.snapshot_id) > ($3, $4, $5)';
    }
    params.push(PAGE);
    const rows = await queryRows(
      c,
      `SELECT ${columns}, o.snapshot_id
       FROM observations o WHERE ${where} ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id LIMIT $${params.length}`,
      params,
    );
    const last = rows[rows.length - 1];
    if (last === undefined) return;
    yield rows;
    if (rows.length < PAGE) return;
    after = [String(last[0]), Number(last[1]), Number(last[7])];
  }
}

/** The observations of a period ordered by pool, time, snapshot. */
export function iteratePgObservations(
  h: PgMirror,
  range: ObservationRange = {},
): AsyncGenerator<ObservationPoint, void, undefined> {
  return inSnapshot(h, 'iterateObservations', async function* (c) {
    const columns = `o.pool_id, o.observed_at_ms, ${buildContractIdSql()}, ${buildLedgerCreatedAtSql()}, o.reserve_a, o.reserve_b,
           o.total_lp_supply`;
    for await (const rows of pageObservationRows(c, range, columns))
      for (const r of rows) yield observationPointOfRow(r);
  });
}

/** The observations of a period as key rows (replay), in pages, ordered by pool, time, snapshot. */
export function iteratePgObservationKeyPages(
  h: PgMirror,
  range: ObservationRange = {},
): AsyncGenerator<ObservationKeyRow[], void, undefined> {
  return inSnapshot(h, 'iterateObservationKeyPages', async function* (c) {
    for await (const rows of pageObservationRows(c, range, OBSERVATION_KEY_COLUMNS))
      yield rows.map((r) => toObservationKeyRow(r.slice(0, 7)));
  });
}

/** The ID and ledger time of each of `keys` (contract row keys) that the mirror holds. */
export async function readPgContractsByKey(
  h: PgMirror,
  keys: readonly number[],
): Promise<Map<number, ContractIdentity>> {
  const out = new Map<number, ContractIdentity>();
  try {
    for (let i = 0; i < keys.length; i += PAGE) {
      const rows = await queryRows(
        h.pool,
        'SELECT ckey, contract_id, ledger_created_at FROM contracts WHERE ckey = ANY($1::bigint[])',
        [keys.slice(i, i + PAGE)],
      );
      for (const r of rows)
        out.set(Number(r[0]), { contractId: String(r[1]), ledgerCreatedAt: String(r[2]) });
    }
  } catch (e) {
    throw toStoreError(h, 'STORE_CORRUPT', 'readContractsByKey', e);
  }
  return out;
}
