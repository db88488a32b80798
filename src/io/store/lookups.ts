/**
 * Small reads of the audit mirror for the pipelines (so that no SQL lives outside src/io/store):
 * the pool of each known contract (audit history), the verification status of contracts
 * (snapshot: which contracts are settled), and a streaming read of the observations of a period
 * (replay's history checks).
 */

import { ARCHIVED_CONTRACTS, findArchivedContractIds, readMirrorSources } from './archive.js';
import { countMirrorRead, mirrorDb } from './mirror-db.js';
import { buildContractIdSql, buildLedgerCreatedAtSql } from './observation-columns.js';
import { guardError, guardStore, type Mirror } from './open-mirror.js';
import { toRangeBounds } from './queries.js';
import type { MirrorVerificationStatus } from './types.js';

/** The pool id of each of `contractIds` that the mirror already holds. */
export function readContractPools(mirror: Mirror, contractIds: readonly string[]): Map<string, string> {
  return guardStore(mirror, 'readContractPools', () => {
    const rows = readContractColumn(mirror, 'pool_id', contractIds) as [string, string][];
    countMirrorRead(mirror, rows.length);
    return new Map(rows);
  });
}

/** The stored verification status of each of `contractIds` that the mirror already holds. */
export function readVerificationStatuses(
  mirror: Mirror,
  contractIds: readonly string[],
): Map<string, MirrorVerificationStatus> {
  return guardStore(mirror, 'readVerificationStatuses', () => {
    const rows = readContractColumn(mirror, 'verification_status', contractIds) as [
      string,
      MirrorVerificationStatus,
    ][];
    return new Map(rows);
  });
}

/** One observation as the replay's history checks read it (the values /pools/state and /pools/proof published). */
export interface ObservationPoint {
  readonly poolId: string;
  readonly observedAtMs: number;
  readonly contractId: string | null;
  readonly ledgerCreatedAt: string | null;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly totalLpSupply: string | null;
}

export interface ObservationRange {
  /** observation time, inclusive (default: no lower bound) */
  readonly fromMs?: number | undefined;
  /** observation time, exclusive (default: no upper bound) */
  readonly toMs?: number | undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** An observation point from a row (pool, observed at, contract, ledger time, reserves, LP supply; both backends). */
export function observationPointOfRow(r: unknown[]): ObservationPoint {
  return {
    poolId: String(r[0]),
    observedAtMs: Number(r[1]),
    contractId: str(r[2]),
    ledgerCreatedAt: str(r[3]),
    reserveA: str(r[4]),
    reserveB: str(r[5]),
    totalLpSupply: str(r[6]),
  };
}

/**
 * (contract_id, column) of the contracts among `contractIds`: from the contract rows, and from the
 * archive only when an ID not among them is archived (its ID prefix is; ./archive.ts).
 */
function readContractColumn(
  mirror: Mirror,
  column: 'pool_id' | 'verification_status',
  contractIds: readonly string[],
): unknown[][] {
  const db = mirrorDb(mirror);
  const sql = (contracts: string): string =>
    `SELECT contract_id, ${column} FROM ${contracts} WHERE contract_id IN (SELECT value FROM json_each(?))`;
  const rows = db.prepare(sql('contracts')).raw(true).all(JSON.stringify(contractIds)) as unknown[][];
  const archived = findArchivedContractIds(db, contractIds);
  if (archived.length === 0) return rows;
  readMirrorSources(mirror);
  return rows.concat(
    db.prepare(sql(ARCHIVED_CONTRACTS)).raw(true).all(JSON.stringify(archived)) as unknown[][],
  );
}

/**
 * Streams the observations of a period ordered by pool, then time (then snapshot): one query over
 * the observations table (contract IDs and omitted values from the contract row by its key). Do not write to the same mirror while iterating.
 */
export function* iterateObservations(
  mirror: Mirror,
  range: ObservationRange = {},
): Generator<ObservationPoint, void, undefined> {
  try {
    const t = readMirrorSources(mirror);
    const stmt = mirrorDb(mirror).prepare(
      `SELECT o.pool_id, o.observed_at_ms, ${buildContractIdSql('o', t.contracts)}, ${buildLedgerCreatedAtSql('o', t.contracts)}, o.reserve_a, o.reserve_b,
         o.total_lp_supply
       FROM ${t.observations} o WHERE o.observed_at_ms >= ? AND o.observed_at_ms < ? ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id`,
    );
    stmt.raw(true);
    const it = stmt.iterate(...toRangeBounds(range)) as IterableIterator<unknown[]>;
    for (const r of it) yield observationPointOfRow(r);
  } catch (e) {
    throw guardError(mirror, 'iterateObservations', e);
  }
}

/**
 * One observation as replay reads it (`iterateObservationKeyPages`): the proof's contract by its row
 * key instead of its ID, and the ledger time the observation stored — null where the compact mirror
 * omitted it as the contract row's (replay takes it from the contract it re-verified, or from
 * `readContractsByKey`). Reading the contract row for every observation cost replay more than the
 * observations themselves.
 */
export type ObservationKeyRow = readonly [
  poolId: string,
  observedAtMs: number,
  contractKey: number | null,
  storedLedgerCreatedAt: string | null,
  reserveA: string | null,
  reserveB: string | null,
  totalLpSupply: string | null,
];

/** The columns of an ObservationKeyRow, in its order (both backends). */
export const OBSERVATION_KEY_COLUMNS =
  'o.pool_id, o.observed_at_ms, o.contract_key, o.ledger_created_at, o.reserve_a, o.reserve_b, o.total_lp_supply';

/** A row of OBSERVATION_KEY_COLUMNS as an ObservationKeyRow (types checked, numbers made numbers; in place). */
export function toObservationKeyRow(r: unknown[]): ObservationKeyRow {
  r[0] = String(r[0]);
  r[1] = Number(r[1]);
  r[2] = r[2] === null || r[2] === undefined ? null : Number(r[2]);
  for (let i = 3; i < 7; i++) r[i] = str(r[i]);
  return r as unknown as ObservationKeyRow;
}

/**
 * Streams the observations of a period as key rows in pages of at most `pageSize`, ordered by pool,
 * then time (then snapshot), as `iterateObservations`. Do not write to the same mirror meanwhile.
 */
export function* iterateObservationKeyPages(
  mirror: Mirror,
  range: ObservationRange = {},
  pageSize = 4096,
): Generator<ObservationKeyRow[], void, undefined> {
  try {
    const t = readMirrorSources(mirror);
    const stmt = mirrorDb(mirror).prepare(
      `SELECT ${OBSERVATION_KEY_COLUMNS} FROM ${t.observations} o
       WHERE o.observed_at_ms >= ? AND o.observed_at_ms < ? ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id`,
    );
    stmt.raw(true);
    const it = stmt.iterate(...toRangeBounds(range)) as IterableIterator<unknown[]>;
    let page: ObservationKeyRow[] = [];
    for (const r of it) {
      page.push(toObservationKeyRow(r));
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  } catch (e) {
    throw guardError(mirror, 'iterateObservationKeyPages', e);
  }
}

/** A contract row's ID and ledger creation time (what an observation omits in a compact mirror). */
export interface ContractIdentity {
  readonly contractId: string;
  readonly ledgerCreatedAt: string;
}

/** Keys per lookup statement. */
const KEYS_PER_LOOKUP = 10_000;

/** The ID and ledger time of each of `keys` (contract row keys) that the mirror holds. */
export function readContractsByKey(mirror: Mirror, keys: readonly number[]): Map<number, ContractIdentity> {
  return guardStore(mirror, 'readContractsByKey', () => {
    const out = new Map<number, ContractIdentity>();
    const t = readMirrorSources(mirror);
    const stmt = mirrorDb(mirror)
      .prepare(
        `SELECT ckey, contract_id, ledger_created_at FROM ${t.contracts} WHERE ckey IN (SELECT value FROM json_each(?))`,
      )
      .raw(true);
    for (let i = 0; i < keys.length; i += KEYS_PER_LOOKUP)
      for (const [k, contractId, ledgerCreatedAt] of stmt.all(
        JSON.stringify(keys.slice(i, i + KEYS_PER_LOOKUP)),
      ) as [number, string, string][])
        out.set(Number(k), { contractId, ledgerCreatedAt });
    return out;
  });
}
