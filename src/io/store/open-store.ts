/**
 * Opening the mirror a command names (docs/mirror.md "Two backends"): a `postgres://` or
 * `postgresql://` URL opens the PostgreSQL backend (./postgres/), anything else is a SQLite file path
 * (./sqlite-store.ts). The `RESERVE_AUDIT_MIRROR` environment variable is the default target of
 * the commands (src/cli/options.ts). Both return the one MirrorStore interface.
 */
import type { MirrorStore } from './mirror-store.js';
import { isPostgresTarget } from './mirror-target.js';
import { type OpenPgStoreOptions, openPgStore } from './postgres/open-pg-store.js';
import { openSqliteStore } from './sqlite-store.js';

/** Opens the mirror at `target` (a postgres:// URL or a SQLite file path); throws StoreError. */
export async function openMirrorStore(
  target: string,
  options: OpenPgStoreOptions = {},
): Promise<MirrorStore> {
  if (isPostgresTarget(target)) return await openPgStore(target, options);
  return openSqliteStore(target, options);
}
