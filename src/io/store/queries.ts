/**
 * Reading the audit mirror: pool histories, latest observations, history-check inputs, snapshot
 * rows and a streaming contract iterator for replay (prepared statements, `.iterate()` in raw
 * mode, blobs as stored; ≥ 30,000 contracts/s, see BENCHMARKS.md).
 */
import { StoreError } from '../../errors/store.js';
import { readMirrorSources } from './archive.js';
import { BLOB_DICT_COLUMN, decodeStoredBlob } from './blob-codec.js';
import { decodeHexColumn } from './hex-columns.js';
import { countMirrorRead, mirrorDb } from './mirror-db.js';
import {
  buildBlobSha256Sql,
  buildContractIdSql,
  buildLedgerCreatedAtSql,
  buildProofReserveSql,
  buildStateContractIdSql,
} from './observation-columns.js';
import { guardError, guardStore, type Mirror } from './open-mirror.js';
import { OBSERVATION_PERIOD_SQL } from './schema/008-appended-raw-bodies.js';
import { buildTemplateSql, readTemplates } from './template-keys.js';
import type {
  HistoryObservation,
  MirrorContract,
  MirrorSnapshotRow,
  MirrorVerificationStatus,
  PoolObservation,
} from './types.js';

/** The observation columns as published, from the row aliased `o` (compact rows rebuilt: ./observation-columns.ts). */
function buildObservationColumnsSql(contracts = 'contracts'): string {
  return `o.snapshot_id, o.pool_id, o.observed_at_ms, ${buildContractIdSql('o', contracts)} AS contract_id,
  ${buildStateContractIdSql('o', contracts)} AS state_contract_id, o.symbol, o.reserve_a, o.reserve_b, o.price, o.tvl_cc, o.fee_rate,
  o.total_lp_supply, ${buildLedgerCreatedAtSql('o', contracts)} AS ledger_created_at, o.ledger_created_at_ms,
  ${buildProofReserveSql('a')} AS proof_reserve_a, ${buildProofReserveSql('b')} AS proof_reserve_b,
  ${buildBlobSha256Sql('o', contracts)} AS blob_sha256`;
}

/** The observation columns as published, read through the contract rows (PostgreSQL, SQLite rows only). */
export const OBS_COLUMNS = buildObservationColumnsSql();

type Row = Record<string, unknown>;

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return null;
}

/** An observation from a row keyed by column name (both backends). */
export function toObservation(r: Row): PoolObservation {
  return {
    snapshotId: num(r.snapshot_id) ?? 0,
    poolId: String(r.pool_id),
    observedAtMs: num(r.observed_at_ms) ?? 0,
    contractId: str(r.contract_id),
    stateContractId: str(r.state_contract_id),
    symbol: str(r.symbol),
    reserveA: str(r.reserve_a),
    reserveB: str(r.reserve_b),
    price: str(r.price),
    tvlCc: str(r.tvl_cc),
    feeRate: str(r.fee_rate),
    totalLpSupply: str(r.total_lp_supply),
    ledgerCreatedAt: str(r.ledger_created_at),
    ledgerCreatedAtMs: num(r.ledger_created_at_ms),
    proofReserveA: str(r.proof_reserve_a),
    proofReserveB: str(r.proof_reserve_b),
    blobSha256: decodeHexColumn(r.blob_sha256),
  };
}

/**
 * Every observation of one pool, oldest first (optionally only the newest `limit`). Read one
 * observation period at a time, newest first, through `observations_period` (schema 8: the index
 * is clustered by period, not by pool, so that recording appends to it), until `limit` are found.
 */
export function readPoolHistory(
  mirror: Mirror,
  poolId: string,
  options: { readonly limit?: number } = {},
): PoolObservation[] {
  return guardStore(mirror, 'readPoolHistory', () => {
    const limit = options.limit ?? -1;
    const t = readMirrorSources(mirror);
    const db = mirrorDb(mirror);
    if (t.archived) {
      // with an archive: one read by pool (the archived copy is indexed by pool and time)
      const all = db
        .prepare(
          `SELECT ${buildObservationColumnsSql(t.contracts)} FROM ${t.observations} o WHERE o.pool_id = ?
           ORDER BY o.observed_at_ms, o.snapshot_id`,
        )
        .all(poolId) as Row[];
      return (limit < 0 ? all : all.slice(Math.max(0, all.length - limit))).map(toObservation);
    }
    const span = db
      .prepare(
        `SELECT (SELECT min(${OBSERVATION_PERIOD_SQL}) FROM observations), (SELECT max(${OBSERVATION_PERIOD_SQL}) FROM observations)`,
      )
      .raw(true)
      .get() as [number | null, number | null];
    const inPeriod = db.prepare(
      `SELECT ${OBS_COLUMNS} FROM observations o WHERE (o.${OBSERVATION_PERIOD_SQL}) = ? AND o.pool_id = ?`,
    );
    const rows: Row[] = [];
    const [first, last] = span;
    if (first !== null && last !== null && limit !== 0)
      for (let p = last; p >= first && (limit < 0 || rows.length < limit); p--)
        rows.push(...(inPeriod.all(p, poolId) as Row[]));
    rows.sort(
      (a, b) =>
        (num(a.observed_at_ms) ?? 0) - (num(b.observed_at_ms) ?? 0) ||
        (num(a.snapshot_id) ?? 0) - (num(b.snapshot_id) ?? 0),
    );
    return (limit < 0 ? rows : rows.slice(Math.max(0, rows.length - limit))).map(toObservation);
  });
}

/** The most recent observation of every pool the mirror has seen, by pool id. */
export function readLatestObservations(mirror: Mirror): PoolObservation[] {
  return guardStore(mirror, 'readLatestObservations', () => {
    const rows = mirrorDb(mirror)
      .prepare(
        `SELECT ${OBS_COLUMNS} FROM observations o
         JOIN (SELECT pool_id, max(snapshot_id) AS sid FROM observations GROUP BY pool_id) l
           ON o.pool_id = l.pool_id AND o.snapshot_id = l.sid
         ORDER BY o.pool_id`,
      )
      .all() as Row[];
    countMirrorRead(mirror, rows.length);
    return rows.map(toObservation);
  });
}

export interface HistoryQuery {
  /** only these pools (default: all) */
  readonly poolIds?: readonly string[];
  /** only observations at or after this time */
  readonly sinceMs?: number;
  /** at most this many newest observations per pool (default 1,000) */
  readonly limitPerPool?: number;
}

/**
 * Observations joined with their reserve contracts, grouped by pool, oldest first — the input of
 * the history checks (reserve continuity, LP supply, creation-time monotonicity, stale proofs).
 * One set-based query (a window function keeps the newest `limitPerPool` per pool); the join goes
 * through the contract key (`contracts_key`, migration 005) to the contract rows (small: blobs are
 * stored compressed).
 * Pools come in pool-id order, or in the order of `poolIds` (a requested pool without
 * observations maps to an empty list).
 */
export function readObservationsForHistoryChecks(
  mirror: Mirror,
  query: HistoryQuery = {},
): Map<string, HistoryObservation[]> {
  return guardStore(mirror, 'readObservationsForHistoryChecks', () => {
    const limit = query.limitPerPool ?? 1_000;
    const t = readMirrorSources(mirror);
    const bounded = limit < Number.MAX_SAFE_INTEGER;
    const where = `o.observed_at_ms >= ?${query.poolIds === undefined ? '' : ' AND o.pool_id IN (SELECT value FROM json_each(?))'}`;
    const source = bounded
      ? `(SELECT *, row_number() OVER (PARTITION BY pool_id ORDER BY observed_at_ms DESC, snapshot_id DESC) AS rn
          FROM ${t.observations} o WHERE ${where}) o`
      : `${t.observations} o`;
    const stmt = mirrorDb(mirror).prepare(
      `SELECT ${buildObservationColumnsSql(t.contracts)}, c.verification_status, c.verification_reason, c.reserve_a, c.reserve_b, c.total_lp_supply,
              c.created_at_ms, c.created_at_micros, c.fields_source,
              ${buildTemplateSql()}
       FROM ${source} LEFT JOIN ${t.contracts} c ON c.ckey = o.contract_key
       WHERE ${bounded ? 'o.rn <= ?' : where}
       ORDER BY o.pool_id, o.observed_at_ms, o.snapshot_id`,
    );
    stmt.raw(true);
    const params: unknown[] = [query.sinceMs ?? Number.MIN_SAFE_INTEGER];
    if (query.poolIds !== undefined) params.push(JSON.stringify(query.poolIds));
    if (bounded) params.push(limit);
    const out = new Map<string, HistoryObservation[]>();
    for (const id of query.poolIds ?? []) out.set(id, []);
    let poolId = '';
    let list: HistoryObservation[] = [];
    let rows = 0;
    for (const r of stmt.iterate(...params) as IterableIterator<unknown[]>) {
      rows += 1;
      if (r[1] !== poolId || list.length === 0) {
        poolId = String(r[1]);
        list = out.get(poolId) ?? [];
        out.set(poolId, list);
      }
      list.push(toHistoryObservation(r));
    }
    countMirrorRead(mirror, rows);
    return out;
  });
}

/** A history observation from a row of HISTORY_OBSERVATION_COLUMNS (both backends). */
export function toHistoryObservation(r: unknown[]): HistoryObservation {
  const status = str(r[17]) as MirrorVerificationStatus | null;
  const fieldsSource = str(r[24]) as 'blob' | 'published' | null;
  return {
    snapshotId: num(r[0]) ?? 0,
    poolId: String(r[1]),
    observedAtMs: num(r[2]) ?? 0,
    contractId: str(r[3]),
    stateContractId: str(r[4]),
    symbol: str(r[5]),
    reserveA: str(r[6]),
    reserveB: str(r[7]),
    price: str(r[8]),
    tvlCc: str(r[9]),
    feeRate: str(r[10]),
    totalLpSupply: str(r[11]),
    ledgerCreatedAt: str(r[12]),
    ledgerCreatedAtMs: num(r[13]),
    proofReserveA: str(r[14]),
    proofReserveB: str(r[15]),
    blobSha256: decodeHexColumn(r[16]),
    verificationStatus: status,
    verificationReason: str(r[18]),
    contractReserveA: str(r[19]),
    contractReserveB: str(r[20]),
    contractTotalLpSupply: str(r[21]),
    contractCreatedAtMs: num(r[22]),
    contractCreatedAtMicros: r[23] == null ? null : BigInt(r[23] as number),
    fieldsSource,
    template: str(r[25]),
    proven: status === 'verified' && fieldsSource === 'blob',
  };
}

/** Number of reserve contracts in the mirror (optionally with one status, or created in a range). */
export function countContracts(
  mirror: Mirror,
  options: {
    readonly status?: MirrorVerificationStatus;
    readonly fromMs?: number;
    readonly toMs?: number;
  } = {},
): number {
  return guardStore(mirror, 'countContracts', () => {
    const [from, to] = toRangeBounds(options);
    const t = readMirrorSources(mirror);
    const v =
      options.status === undefined
        ? mirrorDb(mirror)
            .prepare(`SELECT count(*) FROM ${t.contracts} WHERE created_at_ms >= ? AND created_at_ms < ?`)
            .pluck()
            .get(from, to)
        : mirrorDb(mirror)
            .prepare(
              `SELECT count(*) FROM ${t.contracts} WHERE verification_status = ? AND created_at_ms >= ? AND created_at_ms < ?`,
            )
            .pluck()
            .get(options.status, from, to);
    return num(v) ?? 0;
  });
}

/** Number of snapshots recorded in the mirror. */
export function countSnapshots(mirror: Mirror): number {
  return guardStore(
    mirror,
    'countSnapshots',
    () => num(mirrorDb(mirror).prepare('SELECT count(*) FROM snapshots').pluck().get()) ?? 0,
  );
}

/** Snapshot rows, newest first. */
export function readSnapshots(
  mirror: Mirror,
  options: { readonly limit?: number } = {},
): MirrorSnapshotRow[] {
  return guardStore(mirror, 'readSnapshots', () => {
    const rows = mirrorDb(mirror)
      .prepare('SELECT * FROM snapshots ORDER BY id DESC LIMIT ?')
      .all(options.limit ?? -1) as Row[];
    return rows.map(toSnapshotRow);
  });
}

/** A snapshot row from a row keyed by column name (both backends). */
export function toSnapshotRow(r: Row): MirrorSnapshotRow {
  let failed: string[] = [];
  try {
    const j = JSON.parse(String(r.failed_sections)) as unknown;
    if (Array.isArray(j)) failed = j.filter((x): x is string => typeof x === 'string');
  } catch {
    throw new StoreError(
      'STORE_CORRUPT',
      `snapshots.failed_sections of snapshot ${String(r.id)} is not JSON`,
    );
  }
  return {
    id: num(r.id) ?? 0,
    baseUrl: String(r.base_url),
    startedAtMs: num(r.started_at_ms) ?? 0,
    finishedAtMs: num(r.finished_at_ms) ?? 0,
    recordedAtMs: num(r.recorded_at_ms) ?? 0,
    poolCount: num(r.pool_count) ?? 0,
    newContracts: num(r.new_contracts) ?? 0,
    failedSections: failed,
  };
}

/**
 * The stored bytes of a response body, or null when no kept response has this digest. A scan of
 * the responses (schema 8 keeps no index by digest: recording would maintain it for every new body).
 */
export function readResponseBody(mirror: Mirror, sha256: string): Uint8Array | null {
  return guardStore(mirror, 'readResponseBody', () => {
    const v = mirrorDb(mirror)
      .prepare(
        'SELECT b.body FROM responses r JOIN bodies b ON b.id = r.body_id WHERE r.body_sha256 = ? LIMIT 1',
      )
      .pluck()
      .get(sha256);
    return v instanceof Uint8Array ? v : null;
  });
}

export interface ContractRange {
  /** ledger creation time, inclusive (default: no lower bound) */
  readonly fromMs?: number;
  /** ledger creation time, exclusive (default: no upper bound) */
  readonly toMs?: number;
  readonly poolId?: string;
}

/** The [from, to) bounds of a time range (both backends): an open end is the widest safe integer. */
export function toRangeBounds(range: {
  readonly fromMs?: number | undefined;
  readonly toMs?: number | undefined;
}): [number, number] {
  return [range.fromMs ?? Number.MIN_SAFE_INTEGER, range.toMs ?? Number.MAX_SAFE_INTEGER];
}

/**
 * Streams the stored reserve contracts ordered by ledger creation time (then contract ID), one
 * row at a time. Do not write to the same mirror while iterating.
 */
export function* iterateContracts(
  mirror: Mirror,
  range: ContractRange = {},
): Generator<MirrorContract, void, undefined> {
  const [from, to] = toRangeBounds(range);
  try {
    const sources = readMirrorSources(mirror);
    const templates = readTemplates(mirrorDb(mirror));
    const cols = `contract_id, pool_id, blob, update_id, template_key, NULL, NULL, NULL, reserve_a,
      reserve_b, total_lp_supply, ledger_created_at, created_at_ms, fields_source, verification_status, verification_reason,
      first_seen_ms, last_seen_ms, created_at_micros, blob_sha256, blob_dict, ${BLOB_DICT_COLUMN}`;
    const stmt =
      range.poolId === undefined
        ? mirrorDb(mirror).prepare(
            `SELECT ${cols} FROM ${sources.contracts} WHERE created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
          )
        : mirrorDb(mirror).prepare(
            `SELECT ${cols} FROM ${sources.contracts} WHERE pool_id = ? AND created_at_ms >= ? AND created_at_ms < ? ORDER BY created_at_ms, contract_id`,
          );
    stmt.raw(true);
    const it = (
      range.poolId === undefined ? stmt.iterate(from, to) : stmt.iterate(range.poolId, from, to)
    ) as IterableIterator<unknown[]>;
    for (const r of it) {
      const t = templates.get(r[4] as number);
      if (t === undefined)
        throw new StoreError(
          'STORE_CORRUPT',
          `"template_key" expected a key of table templates, got ${String(r[4])}`,
        );
      yield {
        contractId: r[0] as string,
        poolId: r[1] as string,
        blob: decodeStoredBlob(r[0] as string, r[2], r[20], r[21]),
        updateId: decodeHexColumn(r[3]) ?? '',
        packageId: t.package_id,
        packageName: t.package_name,
        moduleName: t.module_name,
        entityName: t.entity_name,
        reserveA: r[8] as string,
        reserveB: r[9] as string,
        totalLpSupply: r[10] as string,
        ledgerCreatedAt: r[11] as string,
        createdAtMs: r[12] as number,
        fieldsSource: r[13] as 'blob' | 'published',
        verificationStatus: r[14] as MirrorVerificationStatus,
        verificationReason: r[15] as string | null,
        firstSeenMs: r[16] as number,
        lastSeenMs: r[17] as number,
        createdAtMicros: BigInt(r[18] as number),
        blobSha256: decodeHexColumn(r[19]) ?? '',
      };
    }
  } catch (e) {
    throw guardError(mirror, 'iterateContracts', e);
  }
}
