/**
 * Mirror schema v13 (docs/mirror.md "Following the ledger"): the reserve contracts' created and
 * archived events as a participant's `/v2/updates` stream reported them (`mirror follow`), and the
 * offset each followed (participant, party) has reached. The offset is written in the same
 * transaction as the events up to it, so a follower killed at any point resumes where the mirror
 * says, losing nothing and recording nothing twice (the events are also unique by participant,
 * party, contract and kind). `pool_id` is the pool of a created event whose contract ID recomputed
 * from its blob (an archived event takes its created event's), else NULL. Same tables in both
 * dialects; `ledger_offset` because OFFSET is a keyword of PostgreSQL.
 */
import { type Dialect, type SchemaStep, WORDS } from './dialect.js';

function buildLedgerEventsSql(d: Dialect): string[] {
  const w = WORDS[d];
  return [
    `CREATE TABLE ledger_events (
     id ${w.serial},
     participant TEXT NOT NULL,
     party TEXT NOT NULL,
     ledger_offset ${w.big} NOT NULL,
     node_seq INTEGER NOT NULL,
     contract_id ${w.id} NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('created', 'archived')),
     template_id TEXT NOT NULL,
     created_event_blob ${w.bytes},
     ledger_time_ms ${w.big} NOT NULL,
     pool_id ${w.id},
     UNIQUE (participant, party, contract_id, kind)
   )`,
    'CREATE INDEX ledger_events_pool ON ledger_events (participant, party, pool_id, ledger_offset)',
    'CREATE INDEX ledger_events_offset ON ledger_events (participant, party, ledger_offset, node_seq)',
    `CREATE TABLE ledger_follow_state (
     participant TEXT NOT NULL,
     party TEXT NOT NULL,
     ledger_offset ${w.big} NOT NULL,
     ledger_time_ms ${w.big},
     updated_at_ms ${w.big} NOT NULL,
     PRIMARY KEY (participant, party)
   )`,
  ];
}

export const LEDGER_EVENTS: SchemaStep = {
  name: 'ledger-events',
  sqlite: buildLedgerEventsSql('sqlite'),
  postgres: buildLedgerEventsSql('postgres'),
};
