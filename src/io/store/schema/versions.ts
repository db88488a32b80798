/**
 * THE list of mirror schema versions (docs/mirror.md "The mirror schema"): one number, one name and
 * one meaning per version, with its SQLite and its PostgreSQL DDL side by side. A version is
 * applied once, inside one transaction, and recorded in the `migrations` table; versions are never
 * renumbered or edited once released (add a new one instead). A step that only one dialect needs
 * is empty in the other, saying why in its file. A database whose highest version is unknown here
 * is refused. Applied by ../migration-runner.ts (SQLite) and ../postgres/migrate.ts.
 */
import { StoreError } from '../../../errors/store.js';
import { computeLatestVersion, isSchemaCurrent, type Migration } from '../migration-runner.js';
import { buildInitialSql } from './001-initial.js';
import { HISTORY_INDEXES } from './002-history-indexes.js';
import { buildHistoryStateSql } from './003-history-state.js';
import { COMPACT_MIRROR } from './004-compact-mirror.js';
import { CONTRACT_KEYS } from './005-contract-keys.js';
import { TEMPLATE_KEYS } from './006-template-keys.js';
import { TIME_CLUSTERED_KEYS } from './007-time-clustered-keys.js';
import { APPENDED_RAW_BODIES } from './008-appended-raw-bodies.js';
import { SETTLED_POOL_CONTRACTS } from './009-settled-pool-contracts.js';
import { ARCHIVE } from './010-archive.js';
import { REPLAY_QUEUE } from './011-replay-queue.js';
import { FAILED_ATTEMPTS } from './012-failed-attempts.js';
import { LEDGER_EVENTS } from './013-ledger-events.js';
import type { Dialect, SchemaStep } from './dialect.js';

const STEPS: readonly SchemaStep[] = [
  { name: 'initial', sqlite: buildInitialSql('sqlite'), postgres: buildInitialSql('postgres') },
  HISTORY_INDEXES,
  {
    name: 'history-state',
    sqlite: buildHistoryStateSql('sqlite'),
    postgres: buildHistoryStateSql('postgres'),
  },
  COMPACT_MIRROR,
  CONTRACT_KEYS,
  { ...TEMPLATE_KEYS, rebuildsReferencedTable: true },
  TIME_CLUSTERED_KEYS,
  { ...APPENDED_RAW_BODIES, rebuildsReferencedTable: true },
  SETTLED_POOL_CONTRACTS,
  ARCHIVE,
  REPLAY_QUEUE,
  FAILED_ATTEMPTS,
  LEDGER_EVENTS,
];

/** The migrations of one dialect: version n is STEPS[n - 1]. */
export function buildMigrations(dialect: Dialect): Migration[] {
  return STEPS.map((s, i) => ({
    version: i + 1,
    name: s.name,
    statements: s[dialect],
    ...(dialect === 'sqlite' && s.rebuildsReferencedTable === true ? { rebuildsReferencedTable: true } : {}),
  }));
}

export const LATEST_SCHEMA_VERSION: number = computeLatestVersion(buildMigrations('sqlite'));

/** The schema version of a mirror whose applied versions are `applied`: the highest (0 when none). */
export function computeSchemaVersion(applied: ReadonlySet<number>): number {
  return Math.max(0, ...applied);
}

/**
 * Throws STORE_SCHEMA_UNSUPPORTED when a mirror with versions `applied` cannot be opened: written
 * by a newer build, or (read-only) not migrated yet.
 */
export function assertSchemaOpenable(
  path: string,
  dialect: Dialect,
  applied: ReadonlySet<number>,
  readonly: boolean,
): void {
  const found = computeSchemaVersion(applied);
  const why =
    found > LATEST_SCHEMA_VERSION
      ? `a mirror schema version ≤ ${LATEST_SCHEMA_VERSION}, got ${found} (written by a newer reserve-audit)`
      : readonly && !isSchemaCurrent(buildMigrations(dialect), applied)
        ? `mirror schema version ${LATEST_SCHEMA_VERSION}, got ${found} (open it once read-write to migrate)`
        : null;
  if (why !== null) throw new StoreError('STORE_SCHEMA_UNSUPPORTED', `"${path}" expected ${why}`);
}
