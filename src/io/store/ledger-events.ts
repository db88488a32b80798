/**
 * The followed ledger events in the mirror (schema v13, docs/mirror.md "Following the ledger"): the
 * reserve contracts' created and archived events a participant's update stream reported to one
 * party, and the offset that (participant, party) has been followed to. `recordLedgerEvents` writes
 * a batch and its offset in ONE transaction: a follower killed at any point leaves either the whole
 * batch with its offset or neither, so the next run resumes from the offset and records nothing
 * twice (a repeated event is also ignored by its key). The SQLite functions live here; the
 * PostgreSQL ones (./postgres/ledger-events.ts) share the rows and the statements' meaning.
 */
import { StoreError } from '../../errors/store.js';
import { mirrorDb, writeMirror } from './mirror-db.js';
import { guardStore, type Mirror } from './open-mirror.js';
import { toBuffer } from './record-snapshot.js';

/** Who is followed: the participant's URL as shown (no credentials) and the reading party. */
export interface LedgerFollowKey {
  readonly participant: string;
  readonly party: string;
}

/** One created or archived event of a reserve contract, as the update stream reported it. */
export interface LedgerEventRow {
  /** the offset of the transaction */
  readonly offset: number;
  /** the event's position in its transaction (0, 1, …) */
  readonly nodeSeq: number;
  readonly contractId: string;
  readonly kind: 'created' | 'archived';
  /** `packageId:Module:Entity` as the participant names it */
  readonly templateId: string;
  /** created events: the blob the participant served (null when it served none) */
  readonly createdEventBlob: Uint8Array | null;
  /** the transaction's ledger time (`effectiveAt`), ms */
  readonly ledgerTimeMs: number;
  /** the pool of a created contract whose ID recomputed from its blob, else null */
  readonly poolId: string | null;
}

/** A batch of events and the offset the stream has been read up to (inclusive) with them. */
export interface LedgerFollowBatch extends LedgerFollowKey {
  readonly events: readonly LedgerEventRow[];
  readonly offset: number;
  /** the ledger time of the newest transaction read, when known */
  readonly ledgerTimeMs: number | null;
  readonly recordedAtMs: number;
}

export interface LedgerFollowState {
  readonly offset: number;
  readonly ledgerTimeMs: number | null;
  readonly updatedAtMs: number;
}

export interface RecordLedgerEventsResult {
  /** events written (a repeated one is not) */
  readonly inserted: number;
  /** the stored offset afterwards */
  readonly offset: number;
}

/** The columns of an event row, in INSERT order (both backends). */
export const LEDGER_EVENT_COLUMNS = [
  'participant',
  'party',
  'ledger_offset',
  'node_seq',
  'contract_id',
  'kind',
  'template_id',
  'created_event_blob',
  'ledger_time_ms',
  'pool_id',
] as const;

/** The values of one event row in LEDGER_EVENT_COLUMNS order. */
export function toLedgerEventValues(key: LedgerFollowKey, e: LedgerEventRow): unknown[] {
  return [
    key.participant,
    key.party,
    e.offset,
    e.nodeSeq,
    e.contractId,
    e.kind,
    e.templateId,
    e.createdEventBlob === null ? null : toBuffer(e.createdEventBlob),
    e.ledgerTimeMs,
    e.poolId,
  ];
}

/** An event from a row in LEDGER_EVENT_COLUMNS order minus the key (columns 3…). */
export function toLedgerEventRow(r: readonly unknown[]): LedgerEventRow {
  const [offset, nodeSeq, contractId, kind, templateId, blob, ledgerTimeMs, poolId] = r;
  if (kind !== 'created' && kind !== 'archived')
    throw new StoreError(
      'STORE_CORRUPT',
      `ledger_events.kind expected created or archived, got ${String(kind)}`,
    );
  return {
    offset: Number(offset),
    nodeSeq: Number(nodeSeq),
    contractId: String(contractId),
    kind,
    templateId: String(templateId),
    createdEventBlob: blob === null || blob === undefined ? null : new Uint8Array(blob as Uint8Array),
    ledgerTimeMs: Number(ledgerTimeMs),
    poolId: poolId === null || poolId === undefined ? null : String(poolId),
  };
}

/** The SELECT list of toLedgerEventRow. */
export const LEDGER_EVENT_SELECT =
  'ledger_offset, node_seq, contract_id, kind, template_id, created_event_blob, ledger_time_ms, pool_id';

/**
 * The statements that close a batch whose events after offset `from` were just written, in order,
 * each with its parameters (both dialects; `param(n)`: the dialect's n-th placeholder): an archived
 * event gets the pool of its contract's created event, then the follow state's offset moves
 * forward (only forward).
 */
export function buildCloseBatchSql(
  b: LedgerFollowBatch,
  from: number,
  param: (n: number) => string,
): readonly (readonly [sql: string, values: unknown[]])[] {
  const [p1, p2, p3, p4, p5] = [1, 2, 3, 4, 5].map(param);
  return [
    [
      `UPDATE ledger_events SET pool_id = (
         SELECT c.pool_id FROM ledger_events c
         WHERE c.participant = ledger_events.participant AND c.party = ledger_events.party
           AND c.contract_id = ledger_events.contract_id AND c.kind = 'created')
       WHERE participant = ${p1} AND party = ${p2} AND kind = 'archived' AND pool_id IS NULL
         AND ledger_offset > ${p3}`,
      [b.participant, b.party, from],
    ],
    [
      `INSERT INTO ledger_follow_state (participant, party, ledger_offset, ledger_time_ms, updated_at_ms)
       VALUES (${p1}, ${p2}, ${p3}, ${p4}, ${p5})
       ON CONFLICT (participant, party) DO UPDATE SET ledger_offset = excluded.ledger_offset,
         ledger_time_ms = excluded.ledger_time_ms, updated_at_ms = excluded.updated_at_ms
       WHERE ledger_follow_state.ledger_offset < excluded.ledger_offset`,
      [b.participant, b.party, b.offset, b.ledgerTimeMs, b.recordedAtMs],
    ],
  ];
}

/**
 * The events of some pools and every unplaced created event, each half read through the pool index
 * (`ledger_events_pool`; an OR of the two would scan every event of the participant and party).
 */
export const LEDGER_EVENTS_OF_POOLS_SQL = (base: string, inPools: string): string =>
  `${base} AND ${inPools} UNION ALL ${base} AND pool_id IS NULL AND kind = 'created' ORDER BY 1, 2`;

/**
 * The followed events of some pools after an offset, for a check that needs only what came since
 * (each pool's chain and history fold continue from its last contract): the pools' events after
 * the offset; each pool's **seed**, its last created event at or below the offset with that
 * contract's archive when it is at or below too; and every unplaced created event (rare, and what
 * lets a successor start its chain anew). So the read is bounded by what is new, not by the
 * history's length. `p` names the dialect's placeholders and the pools as a relation `p(value)`.
 */
export const LEDGER_EVENTS_OF_POOLS_AFTER_SQL = (p: {
  readonly participant: string;
  readonly party: string;
  readonly after: string;
  readonly inPools: string;
  readonly poolRelation: string;
  readonly index: string;
}): string => {
  const base = `SELECT ${LEDGER_EVENT_SELECT} FROM ledger_events`;
  const key = `participant = ${p.participant} AND party = ${p.party}`;
  return `${base}${p.index} WHERE ${key} AND ${p.inPools} AND ledger_offset > ${p.after}
   UNION ALL ${base}${p.index} WHERE ${key} AND pool_id IS NULL AND kind = 'created'
   UNION ALL ${base} WHERE ${key} AND ledger_offset <= ${p.after} AND contract_id IN (
     SELECT (SELECT c.contract_id FROM ledger_events c
             WHERE c.participant = ${p.participant} AND c.party = ${p.party} AND c.pool_id = p.value
               AND c.kind = 'created' AND c.ledger_offset <= ${p.after}
             ORDER BY c.ledger_offset DESC, c.node_seq DESC LIMIT 1)
     FROM ${p.poolRelation})
   ORDER BY 1, 2`;
};

/** Checks a batch before it is written: offsets within (previous, batch offset]. */
export function assertLedgerBatch(b: LedgerFollowBatch): void {
  if (!Number.isSafeInteger(b.offset) || b.offset < 0)
    throw new StoreError(
      'STORE_WRITE_FAILED',
      `a followed offset expected a non-negative integer, got ${b.offset}`,
    );
  for (const e of b.events)
    if (e.offset > b.offset)
      throw new StoreError(
        'STORE_WRITE_FAILED',
        `a followed event expected an offset ≤ the batch offset ${b.offset}, got ${e.offset}`,
      );
}

/** Records a batch and its offset in one transaction (SQLite). Events at or below the stored offset are skipped. */
export function recordLedgerEvents(mirror: Mirror, b: LedgerFollowBatch): RecordLedgerEventsResult {
  assertLedgerBatch(b);
  return writeMirror(
    mirror,
    (path) => `recording ledger events into "${path}" failed`,
    (db): RecordLedgerEventsResult => {
      const before = db
        .prepare('SELECT ledger_offset FROM ledger_follow_state WHERE participant = ? AND party = ?')
        .pluck()
        .get(b.participant, b.party);
      const from = typeof before === 'number' ? before : -1;
      if (b.offset <= from) return { inserted: 0, offset: from };
      const ins = db.prepare(
        `INSERT INTO ledger_events (${LEDGER_EVENT_COLUMNS.join(', ')})
         VALUES (${LEDGER_EVENT_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
      );
      let inserted = 0;
      for (const e of b.events) {
        if (e.offset <= from) continue;
        inserted += ins.run(...toLedgerEventValues(b, e)).changes;
      }
      for (const [sql, values] of buildCloseBatchSql(b, from, () => '?')) db.prepare(sql).run(...values);
      return { inserted, offset: b.offset };
    },
  );
}

/** Where following (participant, party) has reached, or null when it never ran (SQLite). */
export function readLedgerFollowState(mirror: Mirror, key: LedgerFollowKey): LedgerFollowState | null {
  return guardStore(mirror, 'readLedgerFollowState', () => {
    const r = mirrorDb(mirror)
      .prepare(
        'SELECT ledger_offset, ledger_time_ms, updated_at_ms FROM ledger_follow_state WHERE participant = ? AND party = ?',
      )
      .raw(true)
      .get(key.participant, key.party) as unknown[] | undefined;
    return r === undefined ? null : toLedgerFollowState(r);
  });
}

/** The follow state of one (participant, party) with its key. */
export interface LedgerFollowStream extends LedgerFollowKey, LedgerFollowState {}

/** The SELECT of every follow state, ordered by key (both dialects; rows for toLedgerFollowStream). */
export const LEDGER_FOLLOW_STREAMS_SQL =
  'SELECT participant, party, ledger_offset, ledger_time_ms, updated_at_ms FROM ledger_follow_state ORDER BY participant, party';

/** A follow stream from its row (participant, party, ledger_offset, ledger_time_ms, updated_at_ms). */
export function toLedgerFollowStream(r: readonly unknown[]): LedgerFollowStream {
  return { participant: String(r[0]), party: String(r[1]), ...toLedgerFollowState(r.slice(2)) };
}

/** Every (participant, party) the mirror follows, with the offset it reached (SQLite). */
export function readLedgerFollowStreams(mirror: Mirror): LedgerFollowStream[] {
  return guardStore(mirror, 'readLedgerFollowStreams', () =>
    (mirrorDb(mirror).prepare(LEDGER_FOLLOW_STREAMS_SQL).raw(true).all() as unknown[][]).map(
      toLedgerFollowStream,
    ),
  );
}

/** A follow state from its row (ledger_offset, ledger_time_ms, updated_at_ms). */
export function toLedgerFollowState(r: readonly unknown[]): LedgerFollowState {
  return {
    offset: Number(r[0]),
    ledgerTimeMs: r[1] === null || r[1] === undefined ? null : Number(r[1]),
    updatedAtMs: Number(r[2]),
  };
}

/**
 * The followed events of (participant, party) in stream order (SQLite); with `poolIds`, those of these
 * pools and every created event not placed in a pool (its successor's chain starts anew); with
 * `afterOffset` too, only the pools' events after it and each pool's seed
 * (`LEDGER_EVENTS_OF_POOLS_AFTER_SQL`).
 */
export function readLedgerEvents(
  mirror: Mirror,
  key: LedgerFollowKey,
  poolIds?: readonly string[],
  afterOffset?: number,
): LedgerEventRow[] {
  return guardStore(mirror, 'readLedgerEvents', () => {
    const db = mirrorDb(mirror);
    if (poolIds !== undefined && afterOffset !== undefined) {
      const sql = LEDGER_EVENTS_OF_POOLS_AFTER_SQL({
        participant: '@participant',
        party: '@party',
        after: '@after',
        inPools: 'pool_id IN (SELECT value FROM json_each(@pools))',
        poolRelation: 'json_each(@pools) p',
        index: ' INDEXED BY ledger_events_pool',
      });
      const params = { ...key, after: afterOffset, pools: JSON.stringify(poolIds) };
      return (db.prepare(sql).raw(true).all(params) as unknown[][]).map(toLedgerEventRow);
    }
    const where = 'WHERE participant = ? AND party = ?';
    const base = `SELECT ${LEDGER_EVENT_SELECT} FROM ledger_events`;
    const rows = (
      poolIds === undefined
        ? db
            .prepare(`${base} ${where} ORDER BY ledger_offset, node_seq`)
            .raw(true)
            .all(key.participant, key.party)
        : db
            .prepare(
              LEDGER_EVENTS_OF_POOLS_SQL(
                // without statistics SQLite would walk the offset index to save the sort
                `${base} INDEXED BY ledger_events_pool ${where}`,
                'pool_id IN (SELECT value FROM json_each(?))',
              ),
            )
            .raw(true)
            .all(key.participant, key.party, JSON.stringify(poolIds), key.participant, key.party)
    ) as unknown[][];
    return rows.map(toLedgerEventRow);
  });
}
