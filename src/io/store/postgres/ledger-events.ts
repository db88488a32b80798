/**
 * The followed ledger events in a PostgreSQL mirror — the rows and meaning of ../ledger-events.ts
 * (SQLite): a batch and its offset in one transaction under the mirror's write lock; events at or
 * below the stored offset skipped, a repeated event ignored by its key.
 */
import {
  assertLedgerBatch,
  buildCloseBatchSql,
  LEDGER_EVENT_COLUMNS,
  LEDGER_EVENT_SELECT,
  LEDGER_EVENTS_OF_POOLS_AFTER_SQL,
  LEDGER_EVENTS_OF_POOLS_SQL,
  LEDGER_FOLLOW_STREAMS_SQL,
  type LedgerEventRow,
  type LedgerFollowBatch,
  type LedgerFollowKey,
  type LedgerFollowState,
  type LedgerFollowStream,
  type RecordLedgerEventsResult,
  toLedgerEventRow,
  toLedgerEventValues,
  toLedgerFollowState,
  toLedgerFollowStream,
} from '../ledger-events.js';
import { type PgMirror, queryRows, writePgMirror } from './connection.js';

const PG_TYPES = ['text', 'text', 'bigint', 'int', 'text', 'text', 'text', 'bytea', 'bigint', 'text'];

/** Records a batch and its offset in one transaction (PostgreSQL). */
export async function recordPgLedgerEvents(
  h: PgMirror,
  b: LedgerFollowBatch,
): Promise<RecordLedgerEventsResult> {
  assertLedgerBatch(b);
  return writePgMirror(h, 'recording ledger events', 'locked', async (c) => {
    const before = (
      await queryRows(
        c,
        'SELECT ledger_offset FROM ledger_follow_state WHERE participant = $1 AND party = $2',
        [b.participant, b.party],
      )
    )[0]?.[0];
    const from = before === undefined ? -1 : Number(before);
    if (b.offset <= from) return { inserted: 0, offset: from };
    const rows = b.events.filter((e) => e.offset > from).map((e) => toLedgerEventValues(b, e));
    let inserted = 0;
    if (rows.length > 0) {
      const ins = await queryRows(
        c,
        `INSERT INTO ledger_events (${LEDGER_EVENT_COLUMNS.join(', ')})
           SELECT * FROM unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
           ON CONFLICT DO NOTHING RETURNING id`,
        PG_TYPES.map((_t, i) => rows.map((r) => r[i])),
      );
      inserted = ins.length;
    }
    for (const [sql, values] of buildCloseBatchSql(b, from, (n) => `$${n}`)) await c.query(sql, values);
    return { inserted, offset: b.offset };
  });
}

/** Where following (participant, party) has reached, or null (PostgreSQL). */
export async function readPgLedgerFollowState(
  h: PgMirror,
  key: LedgerFollowKey,
): Promise<LedgerFollowState | null> {
  const r = (
    await queryRows(
      h.pool,
      'SELECT ledger_offset, ledger_time_ms, updated_at_ms FROM ledger_follow_state WHERE participant = $1 AND party = $2',
      [key.participant, key.party],
    )
  )[0];
  return r === undefined ? null : toLedgerFollowState(r);
}

/** Every (participant, party) the mirror follows, with the offset it reached (PostgreSQL). */
export async function readPgLedgerFollowStreams(h: PgMirror): Promise<LedgerFollowStream[]> {
  return (await queryRows(h.pool, LEDGER_FOLLOW_STREAMS_SQL, [])).map(toLedgerFollowStream);
}

/** The followed events of (participant, party) in stream order; with `poolIds` as ../ledger-events.ts (PostgreSQL). */
export async function readPgLedgerEvents(
  h: PgMirror,
  key: LedgerFollowKey,
  poolIds?: readonly string[],
  afterOffset?: number,
): Promise<LedgerEventRow[]> {
  if (poolIds !== undefined && afterOffset !== undefined) {
    const sql = LEDGER_EVENTS_OF_POOLS_AFTER_SQL({
      participant: '$1',
      party: '$2',
      after: '$4',
      inPools: 'pool_id = ANY($3::text[])',
      poolRelation: 'unnest($3::text[]) AS p(value)',
      index: '',
    });
    const rows = await queryRows(h.pool, sql, [key.participant, key.party, [...poolIds], afterOffset]);
    return rows.map(toLedgerEventRow);
  }
  const base = `SELECT ${LEDGER_EVENT_SELECT} FROM ledger_events WHERE participant = $1 AND party = $2`;
  const rows =
    poolIds === undefined
      ? await queryRows(h.pool, `${base} ORDER BY ledger_offset, node_seq`, [key.participant, key.party])
      : await queryRows(h.pool, LEDGER_EVENTS_OF_POOLS_SQL(base, 'pool_id = ANY($3::text[])'), [
          key.participant,
          key.party,
          [...poolIds],
        ]);
  return rows.map(toLedgerEventRow);
}
