/**
 * The mirror's archive (SQLite schema 10; docs/mirror.md "Archive"): `archiveMirror` moves
 * contracts and observations older than a retention into deflated chunks (./archive-chunks.ts),
 * and the readers see the archived rows through `readMirrorSources`.
 *
 * What is archived, so that nothing the write path or an audit reads leaves the row tables:
 * - an observation older than the cut-off, except each pool's latest;
 * - a contract whose every observation is archived, all of whose `pool_contracts` rows are settled
 *   (./settled-contracts.ts: no audit reads it), and that is no pool's last, newest or last proven
 *   contract in `pool_history`; its `pool_contracts` rows go with it.
 * A contract served again later is moved back into the row tables by the recording
 * (`reviveArchivedContracts`), so the write path finds it where it always did.
 *
 * Reading: a connection that needs the archive copies it once into temporary tables of the same
 * columns (`temp.archived_*`, indexed) and reads views that put both together (`temp.all_*`); the
 * copy is made again when `archive_state.revision` moved (an archive run or a revival). A mirror
 * without archive reads its tables directly, as before.
 */

import type Database from 'better-sqlite3';
import { StoreError } from '../../errors/store.js';
import { type ArchiveTable, decodeArchiveChunk, encodeArchiveChunk } from './archive-chunks.js';
import { decodeStoredBlob } from './blob-codec.js';
import { mirrorDb } from './mirror-db.js';
import { guardStore, type Mirror } from './open-mirror.js';

/** Contracts a chunk holds (with their pool_contracts rows). */
const CONTRACTS_PER_CHUNK = 256;
/** Blob bytes after which a contract chunk is closed early (a chunk inflates to at most MAX_CHUNK_BYTES). */
const CHUNK_BLOB_BYTES = 16 << 20;
/** Observations a chunk holds. */
const OBSERVATIONS_PER_CHUNK = 2048;

/** The names a read uses for the three tables the archive extends. */
export interface MirrorSources {
  readonly contracts: string;
  readonly observations: string;
  readonly poolContracts: string;
  /** true when the names are the views over rows and archive */
  readonly archived: boolean;
}

const PLAIN: MirrorSources = {
  contracts: 'contracts',
  observations: 'observations',
  poolContracts: 'pool_contracts',
  archived: false,
};

const MERGED: MirrorSources = {
  contracts: 'temp.all_contracts',
  observations: 'temp.all_observations',
  poolContracts: 'temp.all_pool_contracts',
  archived: true,
};

/** The archived contract rows alone (after readMirrorSources). */
export const ARCHIVED_CONTRACTS = 'temp.archived_contracts';

const TABLES = [
  ['contracts', 'archived_contracts', 'all_contracts'],
  ['observations', 'archived_observations', 'all_observations'],
  ['pool_contracts', 'archived_pool_contracts', 'all_pool_contracts'],
] as const;

const INDEXES = [
  'CREATE INDEX temp.archived_contracts_key ON archived_contracts (ckey)',
  'CREATE INDEX temp.archived_contracts_id ON archived_contracts (contract_id)',
  'CREATE INDEX temp.archived_contracts_created ON archived_contracts (created_at_ms, contract_id)',
  'CREATE INDEX temp.archived_observations_pool ON archived_observations (pool_id, observed_at_ms)',
  'CREATE INDEX temp.archived_observations_time ON archived_observations (observed_at_ms)',
  'CREATE INDEX temp.archived_observations_key ON archived_observations (contract_key)',
  'CREATE INDEX temp.archived_pool_contracts_key ON archived_pool_contracts (contract_key, pool_id)',
];

/** The archive's revision (0: nothing was ever archived). */
function readArchiveRevision(db: Database.Database): number {
  const v = db.prepare('SELECT revision FROM archive_state WHERE id = 1').pluck().get();
  return typeof v === 'number' ? v : Number(v ?? 0);
}

/**
 * The tables (or views) a read of contracts, observations and pool_contracts uses. With an
 * archive, its current revision is copied into this connection's temporary tables first; call
 * before preparing the read (a connection cannot write while a statement iterates).
 */
export function readMirrorSources(mirror: Mirror): MirrorSources {
  const db = mirrorDb(mirror);
  const revision = readArchiveRevision(db);
  if (revision === 0) return PLAIN;
  const loaded = db
    .prepare(
      "SELECT CASE WHEN EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = 'archive_loaded') THEN 1 ELSE 0 END",
    )
    .pluck()
    .get();
  if (loaded === 1 && db.prepare('SELECT revision FROM temp.archive_loaded').pluck().get() === revision)
    return MERGED;
  copyArchive(db, revision);
  return MERGED;
}

/**
 * (Re)creates the temporary copy of the archive at `revision`: in one transaction (a temp-table
 * insert outside one pays its own journal: 86 µs a row, 8.5 s for 99,000 observations), the
 * indexes built after the rows.
 */
function copyArchive(db: Database.Database, revision: number): void {
  db.transaction(() => copyArchiveRows(db, revision))();
}

function copyArchiveRows(db: Database.Database, revision: number): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS archive_loaded (revision INTEGER NOT NULL)');
  db.exec('DELETE FROM temp.archive_loaded');
  for (const [table, archived, all] of TABLES) {
    db.exec(`DROP VIEW IF EXISTS temp.${all}`);
    db.exec(`DROP TABLE IF EXISTS temp.${archived}`);
    db.exec(`CREATE TEMP TABLE ${archived} AS SELECT * FROM main.${table} WHERE 0`);
    db.exec(
      `CREATE TEMP VIEW ${all} AS SELECT * FROM main.${table} UNION ALL SELECT * FROM temp.${archived}`,
    );
  }
  const inserts = new Map<string, Database.Statement>();
  const insert = (chunk: string, into: string, t: ArchiveTable, allowed: ReadonlySet<string>): void => {
    for (const c of t.columns)
      if (!allowed.has(c))
        throw new StoreError(
          'STORE_CORRUPT',
          `archive chunk ${chunk}: expected a column of ${into}, got "${c}"`,
        );
    const sql = `INSERT INTO temp.${into} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`;
    let stmt = inserts.get(sql);
    if (stmt === undefined) {
      stmt = db.prepare(sql);
      inserts.set(sql, stmt);
    }
    const rows = t.values[0]?.length ?? 0;
    for (let r = 0; r < rows; r++) stmt.run(t.values.map((col) => col[r]));
  };
  const columnsOf = (table: string): Set<string> =>
    new Set(db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
  const contractColumns = columnsOf('contracts');
  const poolContractColumns = columnsOf('pool_contracts');
  const observationColumns = columnsOf('observations');
  for (const [id, body] of db
    .prepare('SELECT id, body FROM archive_contract_chunks ORDER BY id')
    .raw(true)
    .all() as [number, unknown][]) {
    const tables = decodeArchiveChunk(`contracts/${id}`, body);
    for (const [name, t] of tables) {
      if (name === 'contracts') insert(`contracts/${id}`, 'archived_contracts', t, contractColumns);
      else if (name === 'pool_contracts')
        insert(`contracts/${id}`, 'archived_pool_contracts', t, poolContractColumns);
      else
        throw new StoreError(
          'STORE_CORRUPT',
          `archive chunk contracts/${id}: expected contract tables, got "${name}"`,
        );
    }
  }
  for (const [id, body] of db
    .prepare('SELECT id, body FROM archive_observation_chunks ORDER BY id')
    .raw(true)
    .all() as [number, unknown][]) {
    for (const [name, t] of decodeArchiveChunk(`observations/${id}`, body)) {
      if (name !== 'observations')
        throw new StoreError(
          'STORE_CORRUPT',
          `archive chunk observations/${id}: expected observations, got "${name}"`,
        );
      insert(`observations/${id}`, 'archived_observations', t, observationColumns);
    }
  }
  for (const sql of INDEXES) db.exec(sql);
  db.prepare('INSERT INTO temp.archive_loaded (revision) VALUES (?)').run(revision);
}

/** The 64-bit key of a contract ID in `archive_contract_ids`: its first 8 bytes, or of its text. */
function computeContractIdPrefix(contractId: string): bigint {
  const bytes = /^[0-9a-f]{16}/.test(contractId)
    ? Buffer.from(contractId.slice(0, 16), 'hex')
    : Buffer.concat([Buffer.from(contractId, 'utf8'), Buffer.alloc(8)]).subarray(0, 8);
  return bytes.readBigInt64BE(0);
}

/** Of `contractIds` not in the contract rows: those the archive may hold (by ID prefix). */
export function findArchivedContractIds(db: Database.Database, contractIds: readonly string[]): string[] {
  if (contractIds.length === 0 || readArchiveRevision(db) === 0) return [];
  const inRows = db.prepare('SELECT 1 FROM contracts WHERE contract_id = ?').pluck();
  const inArchive = db.prepare('SELECT 1 FROM archive_contract_ids WHERE id_prefix = ? LIMIT 1').pluck();
  return contractIds.filter(
    (id) => inRows.get(id) === undefined && inArchive.get(computeContractIdPrefix(id)) !== undefined,
  );
}

export interface ArchiveResult {
  readonly observations: number;
  readonly contracts: number;
  readonly observationChunks: number;
  readonly contractChunks: number;
}

type Raw = unknown[];

/** Column-major values of raw rows. */
function columnsOfRows(columns: readonly string[], rows: readonly Raw[]): ArchiveTable {
  return { columns, values: columns.map((_, c) => rows.map((r) => r[c])) };
}

/**
 * Moves the observations and contracts recorded before `beforeMs` (as described above) into the
 * archive, in one immediate transaction; every chunk is decoded again and compared with its rows
 * before they are deleted.
 */
export function archiveMirror(mirror: Mirror, beforeMs: number): ArchiveResult {
  return guardStore(mirror, 'archiveMirror', () => {
    const db = mirrorDb(mirror);
    return db
      .transaction((): ArchiveResult => {
        const latest = new Map<string, bigint>();
        for (const [pool, sid] of db
          .prepare('SELECT pool_id, max(snapshot_id) FROM observations GROUP BY pool_id')
          .raw(true)
          .safeIntegers(true)
          .all() as [string, bigint][])
          latest.set(pool, sid);
        // observations, a page at a time in key order
        const page = db
          .prepare(
            `SELECT * FROM observations WHERE observed_at_ms < ? AND (snapshot_id, pool_id) > (?, ?)
             ORDER BY snapshot_id, pool_id LIMIT ${OBSERVATIONS_PER_CHUNK}`,
          )
          .raw(true)
          .safeIntegers(true);
        const obsColumns = page.columns().map((c) => c.name);
        const sidAt = obsColumns.indexOf('snapshot_id');
        const poolAt = obsColumns.indexOf('pool_id');
        const timeAt = obsColumns.indexOf('observed_at_ms');
        const delObs = db.prepare('DELETE FROM observations WHERE snapshot_id = ? AND pool_id = ?');
        const putObsChunk = db.prepare(
          `INSERT INTO archive_observation_chunks (first_observed_at_ms, last_observed_at_ms, observations, body)
           VALUES (?, ?, ?, ?)`,
        );
        let after: [bigint, string] = [-1n, ''];
        let observations = 0;
        let observationChunks = 0;
        let pending: Raw[] = [];
        const flushObservations = (): void => {
          if (pending.length === 0) return;
          const table = columnsOfRows(obsColumns, pending);
          const body = encodeArchiveChunk({ observations: table });
          assertSameRows('observations', body, 'observations', table);
          const times = pending.map((r) => Number(r[timeAt]));
          putObsChunk.run(Math.min(...times), Math.max(...times), pending.length, body);
          for (const r of pending) delObs.run(r[sidAt], r[poolAt]);
          observations += pending.length;
          observationChunks += 1;
          pending = [];
        };
        for (;;) {
          const rows = page.all(beforeMs, after[0], after[1]) as Raw[];
          if (rows.length === 0) break;
          const last = rows[rows.length - 1] as Raw;
          after = [last[sidAt] as bigint, last[poolAt] as string];
          for (const r of rows) if ((r[sidAt] as bigint) !== latest.get(r[poolAt] as string)) pending.push(r);
          if (pending.length >= OBSERVATIONS_PER_CHUNK) {
            const rest = pending.slice(OBSERVATIONS_PER_CHUNK);
            pending = pending.slice(0, OBSERVATIONS_PER_CHUNK);
            flushObservations();
            pending = rest;
          }
        }
        flushObservations();

        // contracts: no row observation left, settled, not held by pool_history
        const referenced = new Set(
          (
            db
              .prepare('SELECT DISTINCT contract_key FROM observations WHERE contract_key IS NOT NULL')
              .pluck()
              .all() as number[]
          ).map(Number),
        );
        const held = new Set(
          db
            .prepare(
              `SELECT last_contract_id FROM pool_history UNION SELECT newest_contract_id FROM pool_history
               UNION SELECT proven_contract_id FROM pool_history`,
            )
            .pluck()
            .all() as (string | null)[],
        );
        const candidates = (
          db
            .prepare(
              `SELECT c.ckey, c.contract_id FROM contracts c WHERE c.last_seen_ms < ?
                 AND NOT EXISTS (SELECT 1 FROM pool_contracts pc WHERE pc.contract_key = c.ckey AND pc.settled = 0)
               ORDER BY c.ckey`,
            )
            .raw(true)
            .all(beforeMs) as [number, string][]
        ).filter(([k, id]) => !referenced.has(Number(k)) && !held.has(id));
        const getContract = db.prepare('SELECT * FROM contracts WHERE ckey = ?').raw(true).safeIntegers(true);
        const contractColumns = getContract.columns().map((c) => c.name);
        const getPoolContracts = db
          .prepare('SELECT * FROM pool_contracts WHERE contract_key = ? ORDER BY pool_id')
          .raw(true)
          .safeIntegers(true);
        const pcColumns = getPoolContracts.columns().map((c) => c.name);
        const dictOf = db.prepare('SELECT dict FROM blob_dictionaries WHERE id = ?').pluck();
        const at = (name: string): number => contractColumns.indexOf(name);
        const putChunk = db.prepare(
          'INSERT INTO archive_contract_chunks (first_ckey, last_ckey, contracts, body) VALUES (?, ?, ?, ?)',
        );
        const putId = db.prepare(
          'INSERT INTO archive_contract_ids (id_prefix, ckey, chunk_id) VALUES (?, ?, ?)',
        );
        const delPoolContracts = db.prepare('DELETE FROM pool_contracts WHERE contract_key = ?');
        const delContract = db.prepare('DELETE FROM contracts WHERE ckey = ?');
        let contractChunks = 0;
        let slice: [number, string][] = [];
        let rows: Raw[] = [];
        let bytes = 0;
        const flushContracts = (): void => {
          if (slice.length === 0) return;
          const pcs = slice.flatMap(([k]) => getPoolContracts.all(k) as Raw[]);
          const tables = {
            contracts: columnsOfRows(contractColumns, rows),
            pool_contracts: columnsOfRows(pcColumns, pcs),
          };
          const body = encodeArchiveChunk(tables, { contracts: { contract_id: 'blob' } });
          assertSameRows('contracts', body, 'contracts', tables.contracts);
          assertSameRows('contracts', body, 'pool_contracts', tables.pool_contracts);
          const chunkId = putChunk.run(
            slice[0]?.[0],
            slice[slice.length - 1]?.[0],
            slice.length,
            body,
          ).lastInsertRowid;
          for (const [k, id] of slice) {
            putId.run(computeContractIdPrefix(id), k, chunkId);
            delPoolContracts.run(k);
            delContract.run(k);
          }
          contractChunks += 1;
          slice = [];
          rows = [];
          bytes = 0;
        };
        for (const c of candidates) {
          const r = getContract.get(c[0]) as Raw;
          // the blob as served (no dictionary): the chunk deflates the blobs together
          const dictId = r[at('blob_dict')];
          if (dictId !== null) {
            r[at('blob')] = Buffer.from(
              decodeStoredBlob(String(r[at('contract_id')]), r[at('blob')], dictId, dictOf.get(dictId)),
            );
            r[at('blob_dict')] = null;
          }
          slice.push(c);
          rows.push(r);
          bytes += (r[at('blob')] as Uint8Array).length;
          if (slice.length >= CONTRACTS_PER_CHUNK || bytes >= CHUNK_BLOB_BYTES) flushContracts();
        }
        flushContracts();
        if (observationChunks + contractChunks > 0)
          db.prepare('UPDATE archive_state SET revision = revision + 1 WHERE id = 1').run();
        return { observations, contracts: candidates.length, observationChunks, contractChunks };
      })
      .immediate();
  });
}

/** Throws unless `body` gives back exactly `table` as its table `name` (nothing lost). */
function assertSameRows(kind: string, body: Buffer, name: string, table: ArchiveTable): void {
  const back = decodeArchiveChunk(`${kind} (new)`, body).get(name);
  const same =
    back !== undefined &&
    back.columns.join('\u0000') === table.columns.join('\u0000') &&
    table.values.every((col, c) =>
      col.every((v, r) => {
        const w = back.values[c]?.[r];
        if (v instanceof Uint8Array) return w instanceof Uint8Array && Buffer.compare(v, w) === 0;
        return v === w;
      }),
    );
  if (!same)
    throw new StoreError('STORE_WRITE_FAILED', `archiving ${name}: the chunk does not give back its rows`);
}

/**
 * Moves archived contracts among `contractIds` back into the row tables (with their pool_contracts
 * rows), rewriting their chunks without them; call inside the recording's transaction, before
 * anything looks the contracts up. Returns how many were moved.
 */
export function reviveArchivedContracts(db: Database.Database, contractIds: readonly string[]): number {
  const wanted = new Set(findArchivedContractIds(db, contractIds));
  if (wanted.size === 0) return 0;
  const chunkIds = new Set<number>();
  const byPrefix = db.prepare('SELECT chunk_id FROM archive_contract_ids WHERE id_prefix = ?').pluck();
  for (const id of wanted)
    for (const c of byPrefix.all(computeContractIdPrefix(id)) as number[]) chunkIds.add(Number(c));
  // prepared once (a chunk can hand back many contracts)
  const chunkBody = db.prepare('SELECT body FROM archive_contract_chunks WHERE id = ?').pluck();
  const dropId = db.prepare('DELETE FROM archive_contract_ids WHERE ckey = ?');
  const dropChunk = db.prepare('DELETE FROM archive_contract_chunks WHERE id = ?');
  const rewriteChunk = db.prepare('UPDATE archive_contract_chunks SET contracts = ?, body = ? WHERE id = ?');
  const inserts = new Map<string, Database.Statement>();
  const insert = (table: string, columns: readonly string[], r: readonly unknown[]): void => {
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    let st = inserts.get(sql);
    if (st === undefined) {
      st = db.prepare(sql);
      inserts.set(sql, st);
    }
    st.run(...r);
  };
  let moved = 0;
  for (const chunkId of chunkIds) {
    const body = chunkBody.get(chunkId);
    const tables = decodeArchiveChunk(`contracts/${chunkId}`, body);
    const contracts = tables.get('contracts');
    const pcs = tables.get('pool_contracts');
    if (contracts === undefined || pcs === undefined)
      throw new StoreError(
        'STORE_CORRUPT',
        `archive chunk contracts/${chunkId}: expected contracts and pool_contracts`,
      );
    const idAt = contracts.columns.indexOf('contract_id');
    const keyAt = contracts.columns.indexOf('ckey');
    const pcKeyAt = pcs.columns.indexOf('contract_key');
    const rows = transpose(contracts);
    const back = rows.filter((r) => wanted.has(String(r[idAt])));
    if (back.length === 0) continue;
    const backKeys = new Set(back.map((r) => String(r[keyAt])));
    const pcRows = transpose(pcs);
    for (const r of back) insert('contracts', contracts.columns, r);
    for (const r of pcRows) if (backKeys.has(String(r[pcKeyAt]))) insert('pool_contracts', pcs.columns, r);
    const keep = rows.filter((r) => !backKeys.has(String(r[keyAt])));
    const keepPcs = pcRows.filter((r) => !backKeys.has(String(r[pcKeyAt])));
    for (const k of backKeys) dropId.run(BigInt(k));
    if (keep.length === 0) dropChunk.run(chunkId);
    else
      rewriteChunk.run(
        keep.length,
        encodeArchiveChunk(
          {
            contracts: columnsOfRows(contracts.columns, keep),
            pool_contracts: columnsOfRows(pcs.columns, keepPcs),
          },
          { contracts: { contract_id: 'blob' } },
        ),
        chunkId,
      );
    moved += back.length;
  }
  if (moved > 0) db.prepare('UPDATE archive_state SET revision = revision + 1 WHERE id = 1').run();
  return moved;
}

function transpose(t: ArchiveTable): unknown[][] {
  const rows = t.values[0]?.length ?? 0;
  const out: unknown[][] = [];
  for (let r = 0; r < rows; r++) out.push(t.values.map((col) => col[r]));
  return out;
}

/** The highest contract key the archive holds (0 when none): new keys go past it. */
export function readArchivedMaxContractKey(db: Database.Database): number {
  return Number(db.prepare('SELECT coalesce(max(last_ckey), 0) FROM archive_contract_chunks').pluck().get());
}

/** The latest observation time the archive holds (null when none). */
export function readArchivedThroughMs(db: Database.Database): number | null {
  const v = db.prepare('SELECT max(last_observed_at_ms) FROM archive_observation_chunks').pluck().get();
  return v === null || v === undefined ? null : Number(v);
}
