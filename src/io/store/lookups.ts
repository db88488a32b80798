/**
 * Small reads of the audit mirror for the pipelines (so that no SQL lives outside src/io/store):
 * the pool of each known contract (audit history), the verification status of contracts
 * (snapshot: which contracts are settled), and a streaming read of the observations of a period
 * (replay's history checks).
 */

import { countMirrorRead, mirrorDb } from './mirror-db.js';
import { computeContractIdColumn, computeLedgerCreatedAtColumn } from './observation-columns.js';
import { guardError, guardStore, type Mirror } from './open-mirror.js';
import type { MirrorVerificationStatus } from './types.js';

/** The pool id of each of `contractIds` that the mirror already holds. */
export function loadContractPools(mirror: Mirror, contractIds: readonly string[]): Map<string, string> {
  return guardStore(mirror, 'loadContractPools', () => {
    const rows = mirrorDb(mirror)
      .prepare(
        'SELECT contract_id, pool_id FROM contracts WHERE contract_id IN (SELECT value FROM json_each(?))',
      )
      .raw(true)
      .all(JSON.stringify(contractIds)) as [string, string][];
    countMirrorRead(mirror, rows.length);
    return new Map(rows);
  });
}

/** The stored verification status of each of `contractIds` that the mirror already holds. */
export function loadVerificationStatuses(
  mirror: Mirror,
  contractIds: readonly string[],
): Map<string, MirrorVerificationStatus> {
  return guardStore(mirror, 'loadVerificationStatuses', () => {
    const rows = mirrorDb(mirror)
      .prepare(
        'SELECT contract_id, verification_status FROM contracts WHERE contract_id IN (SELECT value FROM json_each(?))',
      )
      .raw(true)
      .all(JSON.stringify(contractIds)) as [string, MirrorVerificationStatus][];
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
 * Streams the observations of a period ordered by pool, then time (then snapshot): one query over
 * the observations table (contract IDs and omitted values from the contract row by its key). Do not write to the same mirror while iterating.
 */
export function* iterateObservations(
  mirror: Mirror,
  range: ObservationRange = {},
): Generator<ObservationPoint, void, undefined> {
  try {
    const stmt = mirrorDb(mirror).prepare(
      `SELECT o.pool_id, o.observed_at_ms, ${computeContractIdColumn()}, ${computeLedgerCreatedAtColumn()}, o.reserve_a, o.reserve_b,
         o.total_lp_supply
       FROM observations o WHERE o.observed_at_ms >= ? AND o.observed_at_ms < ? ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id`,
    );
    stmt.raw(true);
    const it = stmt.iterate(
      range.fromMs ?? Number.MIN_SAFE_INTEGER,
      range.toMs ?? Number.MAX_SAFE_INTEGER,
    ) as IterableIterator<unknown[]>;
    for (const r of it) yield observationPointOfRow(r);
  } catch (e) {
    throw guardError(mirror, 'iterateObservations', e);
  }
}
