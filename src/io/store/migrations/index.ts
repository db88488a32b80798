/**
 * The ordered list of mirror migrations. A migration is applied once, inside one transaction,
 * and recorded in the `migrations` table; versions are never renumbered or edited once released
 * (add a new one instead). A database whose highest version is unknown here is refused.
 */
import { MIGRATION_001_INITIAL } from './001-initial.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', statements: MIGRATION_001_INITIAL },
];

export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
