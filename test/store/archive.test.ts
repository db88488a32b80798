/**
 * The mirror's archive (src/io/store/archive.ts, schema 10): archiving moves old contracts and
 * observations into chunks, and every read of the store gives what it gave before; recording goes
 * on (a contract served again comes back to the rows, a snapshot older than the archive re-folds
 * its pools) and reads exactly as a mirror that was never archived; a damaged chunk is a
 * StoreError, never other rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors/store.js';
import { decodeArchiveChunk, encodeArchiveChunk } from '../../src/io/store/archive-chunks.js';
import { type ArchivingMirrorStore, openSqliteStore } from '../../src/io/store/index.js';
import { readAll, snapshotOf, T } from './mirror-reads.js';
import { fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-archive-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function recorded(name: string, versions: number): Promise<ArchivingMirrorStore> {
  const store = await openSqliteStore(join(dir, name));
  for (let v = 0; v < versions; v++) await store.recordSnapshot(snapshotOf(v));
  return store;
}

/** pool 1003 serves its first contract again; 1000 a new one */
const reserved = makeSnapshot(T + 30 * 60_000, [
  {
    poolId: '1000',
    contractId: fixtureContractId(99),
    reserveA: '1.0000000000',
    reserveB: '2.0000000000',
    createdAtMs: T + 29 * 60_000,
  },
  {
    poolId: '1003',
    contractId: fixtureContractId(3000),
    reserveA: '100.0000000000',
    reserveB: '200.5000000000',
    createdAtMs: T + 3,
  },
]);
/** recorded late: older than everything archived */
const late = makeSnapshot(T + 30_000, [
  {
    poolId: '1001',
    contractId: fixtureContractId(1000),
    reserveA: '100.0000000000',
    reserveB: '200.5000000000',
    createdAtMs: T + 1,
  },
]);

describe('mirror archive', () => {
  it('every read gives the same before and after archiving (part and all of the history)', async () => {
    for (const cutoff of [T + 6 * 60_000, Number.MAX_SAFE_INTEGER]) {
      const store = await recorded(`m${cutoff}.db`, 11);
      try {
        const before = await readAll(store);
        const r = await store.archiveMirror(cutoff);
        expect(r.contracts).toBeGreaterThan(0);
        expect(r.observations).toBeGreaterThan(0);
        expect(await readAll(store)).toEqual(before);
        const stats = await store.readMirrorStats();
        expect(stats.tables.find((t) => t.name === 'archive_contract_chunks')?.rows).toBe(r.contractChunks);
        // archiving again moves nothing more; the reads stay the same
        const again = await store.archiveMirror(cutoff);
        expect(again.contracts + again.observations).toBe(0);
        expect(await readAll(store)).toEqual(before);
      } finally {
        await store.close();
      }
    }
  });

  it('keeps each pool’s latest observation in the rows', async () => {
    const store = await recorded('m.db', 11);
    try {
      const latest = await store.readLatestObservations();
      await store.archiveMirror(Number.MAX_SAFE_INTEGER);
      expect(await store.readLatestObservations()).toEqual(latest);
      const stats = await store.readMirrorStats();
      const rows = (name: string) => stats.tables.find((t) => t.name === name)?.rows;
      expect(rows('observations')).toBe(latest.length);
      // contracts an audit may still read (unsettled) stay too; the others are archived
      expect(rows('contracts')).toBeLessThan(stats.contracts);
    } finally {
      await store.close();
    }
  });

  it('recording goes on: a re-served archived contract, a late snapshot — reads as a mirror never archived', async () => {
    const archived = await recorded('a.db', 11);
    const plain = await recorded('p.db', 11);
    try {
      await archived.archiveMirror(T + 8 * 60_000);
      for (const s of [reserved, late, snapshotOf(11)]) {
        await archived.recordSnapshot(s);
        await plain.recordSnapshot(s);
        expect(await readAll(archived)).toEqual(await readAll(plain));
      }
      // the re-served contract is back in the rows: archiving it again gives the same reads
      await archived.archiveMirror(Number.MAX_SAFE_INTEGER);
      expect(await readAll(archived)).toEqual(await readAll(plain));
      expect(
        await archived.readVerificationStatuses([fixtureContractId(3000), fixtureContractId(0)]),
      ).toEqual(await plain.readVerificationStatuses([fixtureContractId(3000), fixtureContractId(0)]));
    } finally {
      await archived.close();
      await plain.close();
    }
  });

  it('a damaged chunk is a StoreError STORE_CORRUPT naming it', async () => {
    const store = await recorded('d.db', 11);
    await store.archiveMirror(Number.MAX_SAFE_INTEGER);
    await store.close();
    const db = new Database(join(dir, 'd.db'));
    db.prepare('UPDATE archive_observation_chunks SET body = ? WHERE id = 1').run(Buffer.from('not deflate'));
    db.close();
    const again = await openSqliteStore(join(dir, 'd.db'));
    try {
      await expect(again.readPoolHistory('1000')).rejects.toThrow(
        /archive chunk observations\/1: expected a deflated body/,
      );
      await expect(again.readPoolHistory('1000')).rejects.toBeInstanceOf(StoreError);
    } finally {
      await again.close();
    }
  });
});

describe('archive chunk format', () => {
  const table = {
    columns: ['i', 'r', 't', 'b', 'n', 'id'],
    values: [
      [1n, -(2n ** 63n), 9_007_199_254_740_993n],
      [1.5, 0, -0.25],
      ['x', '', 'é'],
      [Buffer.from('00aabbccdd', 'hex'), Buffer.alloc(0), Buffer.from('ff', 'hex')],
      [null, null, null],
      ['aabb', 'cc', 'zz'],
    ],
  };

  it('gives back every storage class exactly, hex found in a byte column included', () => {
    const back = decodeArchiveChunk('t', encodeArchiveChunk({ t: table }, { t: { id: 'b' } })).get('t');
    expect(back?.columns).toEqual(table.columns);
    expect(
      back?.values.map((col) =>
        col.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)),
      ),
    ).toEqual(
      table.values.map((col) =>
        col.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)),
      ),
    );
  });

  it('refuses what is not a chunk, with "expected X, got Y"', () => {
    const bad = [
      [null, /expected bytes, got null/],
      [Buffer.from([1, 2, 3]), /expected a deflated body/],
      [encodeArchiveChunk({}).subarray(0, 3), /expected a deflated body|expected a header/],
    ] as const;
    for (const [body, message] of bad) expect(() => decodeArchiveChunk('c', body)).toThrow(message);
    const forged = (header: unknown): Buffer => {
      const h = Buffer.from(JSON.stringify(header));
      const n = Buffer.alloc(4);
      n.writeUInt32BE(h.length, 0);
      return deflateRawSync(Buffer.concat([n, h]));
    };
    expect(() => decodeArchiveChunk('c', forged({ v: 2, tables: {} }))).toThrow(
      /expected format version 1, got 2/,
    );
    expect(() =>
      decodeArchiveChunk('c', forged({ v: 1, tables: { t: { columns: ['a'], rows: 2, values: [[null]] } } })),
    ).toThrow(/table t expected columns × 2 rows/);
    expect(() =>
      decodeArchiveChunk(
        'c',
        forged({ v: 1, tables: { t: { columns: ['a'], rows: 1, values: [[{ b: 0 }]] } } }),
      ),
    ).toThrow(/expected a cell/);
    expect(() =>
      decodeArchiveChunk(
        'c',
        forged({ v: 1, tables: { t: { columns: ['a'], rows: 1, values: [[{ x: [0, 0, 4] }]] } } }),
      ),
    ).toThrow(/expected bytes to read hex from/);
  });
});
