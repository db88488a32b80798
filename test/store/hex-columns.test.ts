/**
 * Hex columns stored as bytes (src/io/store/hex-columns.ts, SQLite schema 6): lowercase hex of
 * even length becomes bytes, anything else stays text, and every read gives back the string
 * written — also for a hostile update ID recorded into a real mirror, and for the migration's SQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ApiSnapshot, PoolProofInfo } from '../../src/core/wire/index.js';
import { buildHexStorageSql, decodeHexColumn, encodeHexColumn } from '../../src/io/store/hex-columns.js';
import { iterateContracts, type Mirror, openMirror, recordSnapshot } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

const SAMPLES = ['', 'ab', '1220ecdc75105c7c', 'ABCD', 'abc', 'not hex', '12 34', 'é', '0x12', 'ab\u0000cd'];

it('round-trips every string; stores bytes only for lowercase hex of even length', () => {
  for (const s of SAMPLES) {
    const stored = encodeHexColumn(s);
    expect(decodeHexColumn(stored)).toBe(s);
    expect(Buffer.isBuffer(stored)).toBe(/^(?:[0-9a-f]{2})*$/.test(s));
  }
  expect(decodeHexColumn(null)).toBeNull();
  expect(decodeHexColumn(12)).toBeNull();
});

it('the migration SQL stores what encodeHexColumn stores', () => {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (v TEXT)');
    const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (const s of SAMPLES) ins.run(s);
    db.exec(`UPDATE t SET v = ${buildHexStorageSql('v')}`);
    const got = db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all();
    expect(got.map((v) => decodeHexColumn(v))).toEqual(SAMPLES);
    expect(got.map((v) => Buffer.isBuffer(v))).toEqual(
      SAMPLES.map((s) => Buffer.isBuffer(encodeHexColumn(s))),
    );
  } finally {
    db.close();
  }
});

let dir: string;
let mirror: Mirror;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-hex-'));
  mirror = openMirror(join(dir, 'm.db'));
});
afterEach(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a mirror stores digests and hex update IDs as bytes, a hostile update ID as text, and reads both back', () => {
  const base = makeSnapshot(Date.UTC(2026, 10, 1), [
    { poolId: 'p1', contractId: fixtureContractId(1), reserveA: '1.0', reserveB: '2.0', createdAtMs: 1 },
    { poolId: 'p2', contractId: fixtureContractId(2), reserveA: '3.0', reserveB: '4.0', createdAtMs: 2 },
  ]);
  const hostile = (p: PoolProofInfo): PoolProofInfo =>
    p.pool_id === 'p2' ? { ...p, reserve_contract: { ...p.reserve_contract, update_id: 'UPDATE-Ü 12' } } : p;
  const snap: ApiSnapshot = {
    ...base,
    proofsAfter: base.proofsAfter.ok
      ? {
          ok: true,
          value: {
            ...base.proofsAfter.value,
            data: { ...base.proofsAfter.value.data, pools: base.proofsAfter.value.data.pools.map(hostile) },
          },
        }
      : base.proofsAfter,
  };
  recordSnapshot(mirror, snap);
  const types = mirrorDb(mirror)
    .prepare('SELECT pool_id, typeof(update_id), typeof(blob_sha256) FROM contracts ORDER BY pool_id')
    .raw(true)
    .all();
  expect(types).toEqual([
    ['p1', 'blob', 'blob'],
    ['p2', 'text', 'blob'],
  ]);
  const byPool = new Map([...iterateContracts(mirror)].map((c) => [c.poolId, c]));
  expect(byPool.get('p1')?.updateId).toBe(`1220${fixtureContractId(1).slice(2, 66)}`);
  expect(byPool.get('p2')?.updateId).toBe('UPDATE-Ü 12');
  expect(byPool.get('p1')?.blobSha256).toMatch(/^[0-9a-f]{64}$/);
});
