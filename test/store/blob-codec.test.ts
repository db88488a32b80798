/**
 * Compact blobs (src/io/store/blob-codec.ts, docs/mirror.md "Compact blobs") on BOTH backends:
 * each pool's later blobs are stored DEFLATE-compressed over the pool's dictionary, every read that
 * returns blob bytes (batches, one batch by key range, iterateContracts) returns the original
 * bytes, whose sha256 is the stored blob_sha256; a corrupted compressed blob or a missing
 * dictionary is STORE_CORRUPT, not a crash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeStoredBlob, encodeStoredBlob } from '../../src/io/store/blob-codec.js';
import { decodeHexColumn } from '../../src/io/store/hex-columns.js';
import type { ContractBatch } from '../../src/io/store/index.js';
import { batchBlob } from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const TEMPLATE = randomBytes(1_600);

/** A blob like a reserve contract's: the same template bytes, a few fields that change per version. */
function blobOf(pool: number, version: number): Buffer {
  const b = Buffer.from(TEMPLATE);
  b.write(`pool-${pool}`, 40);
  randomBytes(64).copy(b, 100); // discriminator and salt
  b.write(`${100 + version}.0000000000/${200 - version}.5000000000`, 400);
  return b;
}

const originals = new Map<string, Buffer>();
const pools = (n: number, version: number): FixturePool[] =>
  Array.from({ length: n }, (_, i) => {
    const contractId = fixtureContractId(i * 1000 + version);
    const blob = blobOf(i, version);
    originals.set(contractId, blob);
    return {
      poolId: String(1000 + i),
      contractId,
      reserveA: `${100 + version}.0000000000`,
      reserveB: `${200 - version}.5000000000`,
      createdAtMs: T + version * 60_000 + i,
      blob: blob.toString('base64'),
    };
  });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const blobsOf = (bs: readonly ContractBatch[]): Map<string, Buffer> =>
  new Map(bs.flatMap((b) => b.contractIds.map((id, i) => [id, Buffer.from(batchBlob(b, i))] as const)));

describe('blob codec', () => {
  it('round-trips over a dictionary, and stores raw when deflating does not shrink', () => {
    const dict = blobOf(0, 0);
    const next = blobOf(0, 1);
    const packed = encodeStoredBlob(next, dict);
    expect(packed).not.toBeNull();
    expect(packed?.length).toBeLessThan(next.length / 4);
    expect(Buffer.from(decodeStoredBlob('c', packed, 1, dict)).equals(next)).toBe(true);
    expect(decodeStoredBlob('c', next, null, null)).toBe(next);
    expect(encodeStoredBlob(randomBytes(40), Buffer.alloc(0))).toBeNull();
  });

  it('a stream that does not inflate, a missing dictionary or a non-blob is STORE_CORRUPT', () => {
    const dict = blobOf(0, 0);
    const packed = encodeStoredBlob(blobOf(0, 1), dict) ?? Buffer.alloc(0);
    const bad = Buffer.from(packed);
    bad.fill(0xff, 0, 8);
    expect(() => decodeStoredBlob('cid-x', bad, 1, dict)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', message: expect.stringContaining('cid-x') }),
    );
    expect(() => decodeStoredBlob('cid-x', packed, 7, null)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', message: expect.stringContaining('dictionary') }),
    );
    expect(() => decodeStoredBlob('cid-x', 'text', null, null)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
  });
});

describeBackends('compact blobs', (backend) => {
  let t: TestMirror;
  beforeEach(async () => {
    t = await openTestMirror(backend);
    for (let v = 0; v < 4; v++) await t.store.recordSnapshot(makeSnapshot(T + v * 60_000, pools(3, v)));
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('stores later blobs of a pool compressed over its dictionary; every read returns the original bytes', async () => {
    expect(await t.count('blob_dictionaries')).toBe(3);
    expect(await t.count('contracts WHERE blob_dict IS NOT NULL')).toBe(12);
    const stored = Number((await t.rows('SELECT sum(length(blob)) FROM contracts'))[0]?.[0]);
    expect(stored).toBeLessThan((12 * TEMPLATE.length) / 4);

    const batches = await collect(t.store.iterateContractBatches({}, 5));
    const got = blobsOf(batches);
    expect(got.size).toBe(12);
    const shas = await t.rows('SELECT contract_id, blob_sha256 FROM contracts');
    for (const [id, sha] of shas) {
      const blob = got.get(String(id));
      expect(blob?.equals(originals.get(String(id)) ?? Buffer.alloc(0))).toBe(true);
      expect(
        createHash('sha256')
          .update(blob ?? '')
          .digest('hex'),
      ).toBe(decodeHexColumn(sha)); // bytes on SQLite (schema 6), text on PostgreSQL
    }
    // the workers' path: one batch by key range
    const ranges = await collect(t.store.iterateContractKeyRanges({}, 5));
    const again = new Map<string, Buffer>();
    for (const r of ranges)
      for (const [k, v] of blobsOf([await t.store.readContractBatch(r)])) again.set(k, v);
    expect(again).toEqual(got);
    // a pool's range only
    const one = blobsOf(await collect(t.store.iterateContractBatches({ poolId: '1001' })));
    expect([...one.keys()].sort()).toEqual([1, 2, 3, 4].map((v) => fixtureContractId(1000 + v - 1)).sort());
    for (const [k, v] of one) expect(v.equals(got.get(k) ?? Buffer.alloc(0))).toBe(true);
  });

  it('old raw rows (blob_dict NULL) read as before, beside compressed ones', async () => {
    const before = blobsOf(await collect(t.store.iterateContractBatches()));
    const id = fixtureContractId(2001);
    const raw = originals.get(id)?.toString('hex') ?? '';
    await t.exec(
      backend === 'sqlite'
        ? `UPDATE contracts SET blob = x'${raw}', blob_dict = NULL WHERE contract_id = '${id}'`
        : `UPDATE contracts SET blob = '\\x${raw}'::bytea, blob_dict = NULL WHERE contract_id = '${id}'`,
    );
    expect(await t.count(`contracts WHERE blob_dict IS NULL AND contract_id = '${id}'`)).toBe(1);
    expect(blobsOf(await collect(t.store.iterateContractBatches()))).toEqual(before);
  });

  it('a corrupted compressed blob is STORE_CORRUPT naming the contract', async () => {
    const id = fixtureContractId(1002);
    await t.exec(
      backend === 'sqlite'
        ? `UPDATE contracts SET blob = x'ffffffffffffffff00' WHERE contract_id = '${id}'`
        : `UPDATE contracts SET blob = '\\xffffffffffffffff00'::bytea WHERE contract_id = '${id}'`,
    );
    await expect(collect(t.store.iterateContractBatches())).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining(id),
    });
    const ranges = await collect(t.store.iterateContractKeyRanges({}, 100));
    await expect(
      t.store.readContractBatch(ranges[0] ?? { first: [0, ''], last: [0, ''], count: 0 }),
    ).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });
});
