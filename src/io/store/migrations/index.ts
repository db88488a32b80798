/**
 * The ordered list of mirror migrations (applied by ../migration-runner.ts). A migration is applied once, inside one transaction,
 * and recorded in the `migrations` table; versions are never renumbered or edited once released
 * (add a new one instead). A database whose highest version is unknown here is refused.
 */
import { computeLatestVersion, type Migration } from '../migration-runner.js';
import { MIGRATION_001_INITIAL } from './001-initial.js';
import { MIGRATION_002_HISTORY_INDEXES } from './002-history-indexes.js';
import { MIGRATION_003_HISTORY_STATE } from './003-history-state.js';
import { MIGRATION_004_COMPACT_MIRROR } from './004-compact-mirror.js';
import { MIGRATION_005_CONTRACT_KEYS } from './005-contract-keys.js';
import { MIGRATION_006_TEMPLATE_KEYS } from './006-template-keys.js';
import { MIGRATION_007_TIME_CLUSTERED_KEYS } from './007-time-clustered-keys.js';
import { MIGRATION_008_APPENDED_RAW_BODIES } from './008-appended-raw-bodies.js';
import { MIGRATION_009_SETTLED_POOL_CONTRACTS } from './009-settled-pool-contracts.js';
import { MIGRATION_010_ARCHIVE } from './010-archive.js';

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', statements: MIGRATION_001_INITIAL },
  { version: 2, name: 'history-indexes', statements: MIGRATION_002_HISTORY_INDEXES },
  { version: 3, name: 'history-state', statements: MIGRATION_003_HISTORY_STATE },
  { version: 4, name: 'compact-mirror', statements: MIGRATION_004_COMPACT_MIRROR },
  { version: 5, name: 'contract-keys', statements: MIGRATION_005_CONTRACT_KEYS },
  {
    version: 6,
    name: 'template-keys',
    statements: MIGRATION_006_TEMPLATE_KEYS,
    rebuildsReferencedTable: true,
  },
  { version: 7, name: 'time-clustered-keys', statements: MIGRATION_007_TIME_CLUSTERED_KEYS },
  {
    version: 8,
    name: 'appended-raw-bodies',
    statements: MIGRATION_008_APPENDED_RAW_BODIES,
    rebuildsReferencedTable: true,
  },
  { version: 9, name: 'settled-pool-contracts', statements: MIGRATION_009_SETTLED_POOL_CONTRACTS },
  { version: 10, name: 'archive', statements: MIGRATION_010_ARCHIVE },
];

export const LATEST_SCHEMA_VERSION: number = computeLatestVersion(MIGRATIONS);
