/**
 * The mirror's SQLite connection, private to src/io/store: a `Mirror` handle carries no raw
 * database; the store's own modules reach the connection through `mirrorDb`. This module is not
 * re-exported by ./index.ts (and the layering rules forbid importing it from outside the store),
 * so every read and write of the mirror is a named store function.
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../../errors/store.js';
import { toBuffer } from './record-snapshot.js';
import type { RowColumns } from './row-columns.js';

/** An open mirror: its path, mode and schema version; `close()` releases the connection. */
export interface Mirror {
  readonly path: string;
  readonly readonly: boolean;
  readonly schemaVersion: number;
  close(): void;
}

const CONNECTIONS = new WeakMap<Mirror, Database.Database>();
const READS = new WeakMap<Mirror, { statements: number; rows: number }>();

/** Rows and statements read by the history reads of this handle (tests: an audit reads O(pools) rows). */
export interface MirrorReadStats {
  readonly statements: number;
  readonly rows: number;
}

/** Creates the handle of an open connection. */
export function wrapMirrorDb(
  db: Database.Database,
  o: { readonly path: string; readonly readonly: boolean; readonly schemaVersion: number },
): Mirror {
  const mirror: Mirror = {
    path: o.path,
    readonly: o.readonly,
    schemaVersion: o.schemaVersion,
    close: () => {
      if (db.open) db.close();
    },
  };
  CONNECTIONS.set(mirror, db);
  READS.set(mirror, { statements: 0, rows: 0 });
  return mirror;
}

/** Counts one statement that returned `rows` rows (called by the history reads). */
export function countMirrorRead(mirror: Mirror, rows: number): void {
  const r = READS.get(mirror);
  if (r === undefined) return;
  r.statements += 1;
  r.rows += rows;
}

/** What the history reads of this handle have read so far. */
export function readMirrorReadStats(mirror: Mirror): MirrorReadStats {
  const r = READS.get(mirror);
  return { statements: r?.statements ?? 0, rows: r?.rows ?? 0 };
}

/** The connection of a mirror handle (store modules and their tests only). */
export function mirrorDb(mirror: Mirror): Database.Database {
  const db = CONNECTIONS.get(mirror);
  if (db === undefined)
    throw new StoreError('STORE_CORRUPT', `"mirror" expected a handle from openMirror, got ${mirror.path}`);
  return db;
}

/**
 * Runs `write` in ONE immediate transaction of a writable mirror. A read-only handle is refused
 * (StoreError STORE_WRITE_FAILED); a failure rolls the transaction back and becomes StoreError
 * STORE_WRITE_FAILED `<failed(path)>: <driver message>` (a StoreError passes through as thrown).
 */
export function writeMirror<T>(
  mirror: Mirror,
  failed: (path: string) => string,
  write: (db: Database.Database) => T,
): T {
  if (mirror.readonly) throw new StoreError('STORE_WRITE_FAILED', `"${mirror.path}" was opened read-only`);
  const db = mirrorDb(mirror);
  const tx = db.transaction(() => write(db));
  try {
    return tx.immediate();
  } catch (e) {
    if (e instanceof StoreError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new StoreError('STORE_WRITE_FAILED', `${failed(mirror.path)}: ${msg}`, { cause: e });
  }
}

/** Inserts `rows` into the table of `spec` (booleans as 0/1), `suffix` after (ON CONFLICT); returns each row's rowid. */
export function insertRows<R extends object>(
  db: Database.Database,
  spec: RowColumns,
  rows: readonly R[],
  suffix = '',
): number[] {
  const names = spec.columns.map((c) => c[0]);
  const stmt = db.prepare(
    `INSERT INTO ${spec.table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ${suffix}`,
  );
  const bind = (v: unknown): unknown =>
    typeof v === 'boolean' ? Number(v) : v instanceof Uint8Array ? toBuffer(v) : v;
  return rows.map((r) => Number(stmt.run(...spec.values(r).map(bind)).lastInsertRowid));
}
