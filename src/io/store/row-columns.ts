/**
 * The columns of the rows a snapshot plan writes (./plan/snapshot-plan.ts), once for both
 * appliers: per table the column names with their PostgreSQL type (for `unnest`), each read from
 * the row's property of the same name in camelCase (`snapshot_key` ← `snapshotKey`) unless a
 * third word names it. What only the applier knows (ids, keys, the stored form of a blob) it adds
 * to the row. SQLite (./sqlite/apply-snapshot.ts) binds the values as they are; PostgreSQL
 * (./postgres/apply-snapshot.ts) sends each column as one array.
 */
import { StoreError } from '../../errors/store.js';
import type { VerificationUpdate } from './plan/snapshot-plan.js';

/** A table's columns (name, PostgreSQL type) and the values of a row in their order. */
export interface RowColumns {
  readonly table: string;
  readonly columns: readonly (readonly [name: string, pgType: string])[];
  readonly values: (row: object) => unknown[];
}

const camel = (column: string): string => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `spec`: "column type [property], …" */
export function defineColumns(table: string, spec: string): RowColumns {
  const list = spec.split(',').map((c) => c.trim().split(/\s+/));
  const fields = list.map(([column = '', , field]) => field ?? camel(column));
  return {
    table,
    columns: list.map(([column = '', type = '']) => [column, type] as const),
    values: (row) =>
      fields.map((f) => {
        if (!(f in row))
          throw new StoreError('STORE_WRITE_FAILED', `a "${table}" row expected "${f}", got none`);
        return (row as Record<string, unknown>)[f];
      }),
  };
}

/** `spec` with more columns after its own (a dialect's own: `body_id`, `ckey`). */
export function withColumns(spec: RowColumns, more: string): RowColumns {
  const extra = defineColumns(spec.table, more);
  const values = (row: object): unknown[] => [...spec.values(row), ...extra.values(row)];
  return { table: spec.table, columns: [...spec.columns, ...extra.columns], values };
}

export const SNAPSHOT_COLUMNS = defineColumns(
  'snapshots',
  `snapshot_key text, base_url text, started_at_ms bigint, finished_at_ms bigint, recorded_at_ms bigint,
   pool_count int, new_contracts int, failed_sections text`,
);

export const BODY_COLUMNS = defineColumns('bodies', 'sha256 text, size int, body bytea');

/** responses (+ `snapshotId`); SQLite adds `body_id` (schema 8) */
export const RESPONSE_COLUMNS = defineColumns(
  'responses',
  `snapshot_id bigint, seq int, method text, url text, request_body text, status int, content_type text,
   body_sha256 text sha256, started_at_ms bigint, duration_ms bigint`,
);

/** a pool's blob dictionary: the first blob stored for the pool */
export const DICTIONARY_COLUMNS = defineColumns('blob_dictionaries', 'pool_id text, dict bytea');

export const TEMPLATE_COLUMNS = defineColumns(
  'templates',
  'package_id text package_id, package_name text package_name, module_name text module_name, entity_name text entity_name',
);

/**
 * contracts (+ `snapshotId`, `seenMs`, and the stored form: `blob`, `blobDict`, `templateKey`,
 * the digests as the dialect stores them); SQLite adds `ckey` (PostgreSQL: an identity)
 */
export const CONTRACT_COLUMNS = defineColumns(
  'contracts',
  `contract_id text, pool_id text, blob bytea, blob_sha256 text, update_id text, template_key bigint,
   reserve_a text, reserve_b text, total_lp_supply text, ledger_created_at text, created_at_ms bigint,
   created_at_micros bigint, fields_source text, verification_status text status,
   verification_reason text reason, first_seen_snapshot bigint snapshotId, last_seen_snapshot bigint snapshotId,
   first_seen_ms bigint seenMs, last_seen_ms bigint seenMs, blob_dict bigint`,
);

/** observations (+ `snapshotId`, `seenMs`, `contractKey`) */
export const OBSERVATION_COLUMNS = defineColumns(
  'observations',
  `snapshot_id bigint, pool_id text, observed_at_ms bigint seenMs, contract_key bigint, state_contract_id text,
   symbol text, reserve_a text, reserve_b text, price text, tvl_cc text, fee_rate text, total_lp_supply text,
   ledger_created_at text, ledger_created_at_ms bigint, proof_reserve_a text, proof_reserve_b text,
   blob_sha256 text, state_is_contract boolean`,
);

const VERIFICATION_COLUMNS = `verification_status, verification_reason, fields_source, reserve_a, reserve_b,
  total_lp_supply, created_at_ms, created_at_micros`.split(',');

/** The UPDATE of a settled verification (`param(n)`: the dialect's n-th placeholder; toVerificationValues order). */
export function buildVerificationUpdateSql(param: (n: number) => string): string {
  const set = VERIFICATION_COLUMNS.map((c, i) => `${c.trim()} = ${param(i + 1)}`).join(', ');
  return `UPDATE contracts SET ${set} WHERE contract_id = ${param(VERIFICATION_COLUMNS.length + 1)}`;
}

/** The parameters of buildVerificationUpdateSql for `u`. */
export function toVerificationValues(u: VerificationUpdate): unknown[] {
  const { status, reason, fieldsSource, reserveA, reserveB, totalLpSupply, createdAtMs } = u;
  return [
    status,
    reason,
    fieldsSource,
    reserveA,
    reserveB,
    totalLpSupply,
    createdAtMs,
    u.createdAtMicros,
    u.contractId,
  ];
}
