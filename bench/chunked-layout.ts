/**
 * A prototype of a chunked mirror layout, measured on a real mirror (docs/bench/mirror.md "A chunked
 * layout, measured"): the question is how small a month of the demo exchange under traffic could be
 * if contracts and observations were stored many to a row, not whether the product should store
 * them so today. Nothing in src reads this layout.
 *
 * From a pruned, vacuumed copy of a mirror (`mirror prune --keep-raw 0`), it writes a second file
 * (`VACUUM INTO`) in which
 * - `contracts`, `pool_contracts` and their indexes are replaced by `contract_chunks`: 64 contracts
 *   a row in contract-key order, each contract's columns except its ID (the blob holds it; a blob
 *   that does not keeps it in the record) plus its
 *   pool_contracts rows plus the raw blob, deflated (level 9) with the pools' blob dictionaries
 *   as the preset dictionary; and `contract_ids`: a 64-bit prefix of each contract ID (its
 *   discriminator's first 8 bytes) → contract key, the index a lookup by ID would start from;
 * - `observations` and its index are replaced by `observation_chunks`: the observations of 64
 *   snapshots a row, column by column, deflated;
 * everything else (snapshots, audit runs, pool_history, templates, …) is kept as it is. Every chunk
 * is inflated again and compared with the rows it came from (nothing lost), then the file is
 * vacuumed and its size and b-trees reported.
 *
 * Run on any mirror: `npx tsx bench/chunked-layout.ts <mirror.sqlite>` (works on a copy); the
 * mirror benchmark (`npm run bench:mirror`) runs it on its pruned copy.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { openMirror, pruneRawResponses, vacuumMirror } from '../src/io/store/index.js';

const CONTRACTS_PER_CHUNK = 64;
const SNAPSHOTS_PER_CHUNK = 64;
/** a deflate window holds 32 KiB: a longer preset dictionary keeps only its tail */
const MAX_DICTIONARY = 32 * 1024;

export interface ChunkedLayoutSize {
  readonly fileBytes: number;
  readonly snapshots: number;
  readonly contracts: number;
  readonly observations: number;
  /** bytes of each table and index, largest first */
  readonly trees: readonly (readonly [name: string, bytes: number])[];
}

type Row = Record<string, unknown>;

/** A column value as text for a chunk ('\u0000' for NULL, hex for bytes); the same for the check. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '\u0000';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  return String(v);
}

/** A u32 big-endian length and the bytes. */
function framed(parts: Buffer[], bytes: Uint8Array): void {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(bytes.length, 0);
  parts.push(head, Buffer.from(bytes));
}

function unframe(buf: Buffer, at: { pos: number }): Buffer {
  const n = buf.readUInt32BE(at.pos);
  const out = buf.subarray(at.pos + 4, at.pos + 4 + n);
  at.pos += 4 + n;
  return out;
}

/** The stored blob as it was served (deflated with the pool's dictionary, or as is). */
function rawBlob(r: Row, dicts: Map<number, Buffer>): Buffer {
  const stored = r.blob as Buffer;
  if (r.blob_dict === null || r.blob_dict === undefined) return stored;
  const dict = dicts.get(r.blob_dict as number);
  if (dict === undefined)
    throw new Error(`contract key ${String(r.ckey)}: no dictionary ${String(r.blob_dict)}`);
  return inflateRawSync(stored, { dictionary: dict });
}

/**
 * Builds the chunked layout from the pruned mirror at `prunedPath` into `outPath` and measures it;
 * throws when a chunk does not give back exactly the rows it was made from.
 */
export function measureChunkedLayout(prunedPath: string, outPath: string): ChunkedLayoutSize {
  const src = new Database(prunedPath, { readonly: true });
  src.prepare('VACUUM INTO ?').run(outPath);
  src.close();
  const db = new Database(outPath);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    const dicts = new Map(
      (db.prepare('SELECT id, dict FROM blob_dictionaries').all() as { id: number; dict: Buffer }[]).map(
        (d) => [d.id, d.dict],
      ),
    );
    const joined = Buffer.concat([...dicts.values()]);
    const dictionary = joined.subarray(Math.max(0, joined.length - MAX_DICTIONARY));
    const deflate = (b: Buffer): Buffer =>
      deflateRawSync(b, { level: constants.Z_BEST_COMPRESSION, memLevel: 9, dictionary });
    const inflate = (b: Buffer): Buffer => inflateRawSync(b, { dictionary });

    const firstSeen = new Map<number, Row[]>();
    for (const pc of db
      .prepare('SELECT * FROM pool_contracts ORDER BY contract_key, pool_id')
      .all() as Row[]) {
      const k = pc.contract_key as number;
      const list = firstSeen.get(k) ?? [];
      list.push(pc);
      firstSeen.set(k, list);
    }
    const contracts = db.prepare('SELECT * FROM contracts ORDER BY ckey').all() as Row[];
    // a real created_event_blob holds its contract ID (field 1: the 69-byte V1 ID), so the chunk
    // leaves the ID column out; a blob that does not (a test fixture's) keeps it in its record
    const holdsId = (r: Row, blob: Buffer): boolean =>
      blob.includes(Buffer.from(r.contract_id as string, 'hex'));
    const metaOf = (r: Row, blob: Buffer): string =>
      JSON.stringify([
        Object.entries(r)
          .filter(([k]) => (k !== 'contract_id' || !holdsId(r, blob)) && k !== 'blob' && k !== 'blob_dict')
          .map(([, v]) => cell(v)),
        (firstSeen.get(r.ckey as number) ?? []).map((pc) => Object.values(pc).map(cell)),
      ]);
    db.exec(`CREATE TABLE contract_chunks (
               first_key INTEGER PRIMARY KEY, last_key INTEGER NOT NULL,
               min_created_at_ms INTEGER NOT NULL, max_created_at_ms INTEGER NOT NULL, body BLOB NOT NULL);
             CREATE TABLE contract_ids (prefix INTEGER NOT NULL, ckey INTEGER NOT NULL, PRIMARY KEY (prefix, ckey))
               WITHOUT ROWID;`);
    const putChunk = db.prepare('INSERT INTO contract_chunks VALUES (?, ?, ?, ?, ?)');
    const putId = db.prepare('INSERT INTO contract_ids VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < contracts.length; i += CONTRACTS_PER_CHUNK) {
        const slice = contracts.slice(i, i + CONTRACTS_PER_CHUNK);
        const parts: Buffer[] = [];
        const blobs = slice.map((r) => rawBlob(r, dicts));
        slice.forEach((r, j) => {
          framed(parts, Buffer.from(metaOf(r, blobs[j] as Buffer)));
          framed(parts, blobs[j] as Buffer);
        });
        const body = deflate(Buffer.concat(parts));
        // nothing lost: the chunk gives back every contract's columns and blob
        const back = inflate(body);
        const at = { pos: 0 };
        slice.forEach((r, j) => {
          const meta = unframe(back, at).toString();
          const blob = unframe(back, at);
          if (meta !== metaOf(r, blob) || !blob.equals(blobs[j] as Buffer))
            throw new Error(`contract key ${String(r.ckey)}: the chunk does not give it back`);
        });
        const times = slice.map((r) => r.created_at_ms as number);
        putChunk.run(
          slice[0]?.ckey,
          slice[slice.length - 1]?.ckey,
          Math.min(...times),
          Math.max(...times),
          body,
        );
        for (const r of slice) {
          const id = r.contract_id as string;
          putId.run(BigInt.asIntN(64, BigInt(`0x${id.slice(2, 18)}`)), r.ckey);
        }
      }
    })();

    const observations = db
      .prepare('SELECT * FROM observations ORDER BY snapshot_id, pool_id')
      .all() as Row[];
    const columns = observations.length === 0 ? [] : Object.keys(observations[0] as Row);
    db.exec(`CREATE TABLE observation_chunks (
               first_snapshot_id INTEGER PRIMARY KEY, last_snapshot_id INTEGER NOT NULL,
               min_observed_at_ms INTEGER NOT NULL, max_observed_at_ms INTEGER NOT NULL, body BLOB NOT NULL)`);
    const putObs = db.prepare('INSERT INTO observation_chunks VALUES (?, ?, ?, ?, ?)');
    const columnar = (rows: Row[]): string =>
      columns.map((c) => rows.map((o) => cell(o[c])).join('\n')).join('\n\n');
    db.transaction(() => {
      let i = 0;
      while (i < observations.length) {
        const first = observations[i]?.snapshot_id as number;
        let j = i;
        while (
          j < observations.length &&
          (observations[j]?.snapshot_id as number) < first + SNAPSHOTS_PER_CHUNK
        )
          j++;
        const rows = observations.slice(i, j);
        const text = columnar(rows);
        const body = deflate(Buffer.from(text));
        if (inflate(body).toString() !== text)
          throw new Error(`observations from snapshot ${first}: not given back`);
        const times = rows.map((o) => o.observed_at_ms as number);
        putObs.run(first, rows[rows.length - 1]?.snapshot_id, Math.min(...times), Math.max(...times), body);
        i = j;
      }
    })();

    db.exec('DROP TABLE pool_contracts; DROP TABLE observations; DROP TABLE contracts; VACUUM');
    const trees = db
      .prepare('SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC')
      .raw(true)
      .all() as [string, number][];
    const snapshots = db.prepare('SELECT count(*) FROM snapshots').pluck().get() as number;
    db.close();
    return {
      fileBytes: statSync(outPath).size,
      snapshots,
      contracts: contracts.length,
      observations: observations.length,
      trees,
    };
  } catch (e) {
    if (db.open) db.close();
    throw e;
  }
}

/** `npx tsx bench/chunked-layout.ts <mirror>`: prune and vacuum a copy, then measure both layouts. */
async function main(path: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'chunked-layout-'));
  try {
    const copy = join(dir, 'pruned.db');
    const source = new Database(path, { readonly: true });
    source.prepare('VACUUM INTO ?').run(copy);
    source.close();
    const m = openMirror(copy);
    pruneRawResponses(m, Number.MAX_SAFE_INTEGER);
    vacuumMirror(m);
    m.close();
    const before = statSync(copy).size;
    const r = measureChunkedLayout(copy, join(dir, 'chunked.db'));
    const month = (bytes: number): string =>
      `${(((bytes / r.snapshots) * 86_400) / 1e6).toFixed(0)} MB a month`;
    console.log(
      `mirror after prune --keep-raw 0: ${before} bytes = ${Math.round(before / r.snapshots)} per snapshot → ${month(before)}`,
    );
    console.log(
      `chunked layout: ${r.fileBytes} bytes = ${Math.round(r.fileBytes / r.snapshots)} per snapshot → ${month(r.fileBytes)} (${r.contracts} contracts, ${r.observations} observations, every chunk checked)`,
    );
    for (const [name, bytes] of r.trees)
      if (bytes >= 8192)
        console.log(
          `  ${name.padEnd(30)} ${String(bytes).padStart(11)} bytes ${(bytes / r.snapshots).toFixed(0).padStart(7)} per snapshot`,
        );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const path = process.argv[2];
  if (path === undefined) {
    console.error('usage: npx tsx bench/chunked-layout.ts <mirror.sqlite>');
    process.exitCode = 2;
  } else await main(path);
}
