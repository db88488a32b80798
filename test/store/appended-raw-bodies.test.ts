/**
 * Appended raw bodies and period-clustered observations (SQLite schema 8,
 * src/io/store/schema/008-appended-raw-bodies.ts): no index of bodies by digest — a body is
 * stored again unless the previous snapshot (or this one) already holds it — and one pool's history
 * read a period at a time through `observations_period`. A schema-7 mirror migrates and reads
 * exactly the same; recording then goes on as in a mirror that recorded everything in schema 8.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import {
  LATEST_SCHEMA_VERSION,
  type Mirror,
  openMirror,
  pruneRawResponses,
  readPoolHistory,
  readResponseBody,
  recordSnapshot,
} from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { wrapSqliteMirror } from '../../src/io/store/sqlite-store.js';
import { POOL_IDS, readAll, SQLITE_BACK_TO_7, snapshotOf, T } from './mirror-reads.js';
import { fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

let dir: string;
let mirror: Mirror;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-bodies-'));
  mirror = openMirror(join(dir, 'm.db'));
});
afterEach(() => {
  mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (sql: string, ...params: unknown[]): unknown[][] =>
  mirrorDb(mirror)
    .prepare(sql)
    .raw(true)
    .all(...params) as unknown[][];

/** A snapshot at minute `minute` whose pools are at generation `gen` (same gen → same proof body). */
function snapshotAt(minute: number, gen: number): ApiSnapshot {
  return makeSnapshot(
    T + minute * 60_000,
    POOL_IDS.map((poolId, i) => ({
      poolId,
      contractId: fixtureContractId(i * 1000 + gen),
      reserveA: `${100 + gen}.0000000000`,
      reserveB: `${200 - gen}.5000000000`,
      createdAtMs: T + gen * 60_000 + i,
    })),
  );
}

describe('raw bodies without an index by digest', () => {
  it('stores a body once while it is unchanged from one snapshot to the next, again after a change', () => {
    /** snapshot `s` taken again `minutes` later with the same responses (an idle exchange) */
    const again = (s: ApiSnapshot, minutes: number): ApiSnapshot => ({
      ...s,
      startedAtMs: s.startedAtMs + minutes * 60_000,
      finishedAtMs: s.finishedAtMs + minutes * 60_000,
      raw: s.raw.map((r) => ({ ...r, startedAtMs: r.startedAtMs + minutes * 60_000 })),
    });
    const a = snapshotAt(0, 0);
    const b = snapshotAt(2, 1);
    const series = [a, again(a, 1), b, again(a, 3), again(a, 4)];
    let previous = new Set<string>();
    const added: number[] = [];
    for (const s of series) {
      const before = Number(rows('SELECT count(*) FROM bodies')[0]?.[0]);
      recordSnapshot(mirror, s);
      const digests = new Set(s.raw.map((r) => r.sha256));
      const fresh = [...digests].filter((d) => !previous.has(d)).length;
      added.push(Number(rows('SELECT count(*) FROM bodies')[0]?.[0]) - before);
      expect(added.at(-1)).toBe(fresh);
      previous = digests;
    }
    // a repeats its own bodies (the two proofs are one body); its copies add nothing; after b, a's come back once
    const distinctA = new Set(a.raw.map((r) => r.sha256)).size;
    expect(distinctA).toBeLessThan(a.raw.length);
    expect(added).toEqual([distinctA, 0, new Set(b.raw.map((r) => r.sha256)).size, distinctA, 0]);
    // a's bodies are stored twice (before and after b), the same bytes
    const twice = rows(
      'SELECT sha256, count(*), count(DISTINCT body) FROM bodies GROUP BY sha256 HAVING count(*) > 1',
    );
    expect(twice.length).toBe(distinctA);
    for (const r of twice) expect(r[2]).toBe(1);
    // every response points at a body with its digest and size
    const bad = rows(
      `SELECT count(*) FROM responses r JOIN bodies b ON b.id = r.body_id
       WHERE b.sha256 <> r.body_sha256 OR b.size <> length(b.body)`,
    );
    expect(bad[0]?.[0]).toBe(0);
    expect(rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'bodies'")).toEqual([]);
  });

  it('reads every kept body by digest; pruning removes them all and keeps nothing unreferenced', async () => {
    const series = [0, 0, 1, 2].map((gen, minute) => snapshotAt(minute, gen));
    for (const s of series) recordSnapshot(mirror, s);
    for (const s of series)
      for (const r of s.raw)
        expect(Buffer.from(readResponseBody(mirror, r.sha256) ?? [])).toEqual(Buffer.from(r.body));
    expect(readResponseBody(mirror, '0'.repeat(64))).toBeNull();
    const cut = series[2]?.startedAtMs ?? 0;
    const p = pruneRawResponses(mirror, cut);
    expect(p.snapshots).toBe(2);
    // the bodies the two kept snapshots still reference stay, nothing else
    expect(
      rows(
        'SELECT count(*) FROM bodies b WHERE NOT EXISTS (SELECT 1 FROM responses r WHERE r.body_id = b.id)',
      )[0]?.[0],
    ).toBe(0);
    for (const s of series.slice(2))
      for (const r of s.raw) expect(readResponseBody(mirror, r.sha256)).not.toBeNull();
    expect(rows("SELECT name FROM sqlite_master WHERE name = 'prune_responses_body'")).toEqual([]);
    // recording after pruning still shares a body with the previous snapshot that kept its responses
    const store = wrapSqliteMirror(mirror);
    await store.recordSnapshot(snapshotAt(10, 2));
    expect(rows('SELECT count(*) FROM bodies GROUP BY sha256 HAVING count(*) > 1')).toEqual([]);
  });
});

describe('one pool history, a period at a time', () => {
  /** the same read without the period index: every row of the pool, sorted */
  const naive = (poolId: string): unknown[] =>
    rows(
      'SELECT snapshot_id FROM observations WHERE pool_id = ? ORDER BY observed_at_ms, snapshot_id',
      poolId,
    ).map((r) => r[0]);

  it('gives the newest `limit` observations in time order, over gaps and out-of-order snapshots', () => {
    // minutes spread over many 2^19 ms periods, with gaps, and one snapshot recorded late
    const minutes = [0, 1, 2, 9, 30, 31, 200, 201, 202, 500, 150, 501];
    minutes.forEach((m, i) => {
      recordSnapshot(mirror, snapshotAt(m, i % 3));
    });
    const periods = rows('SELECT DISTINCT observed_at_ms >> 19 FROM observations').length;
    expect(periods).toBeGreaterThan(5);
    for (const poolId of POOL_IDS) {
      const all = naive(poolId);
      expect(readPoolHistory(mirror, poolId).map((o) => o.snapshotId)).toEqual(all);
      for (const limit of [0, 1, 2, 5, 11, 12, 50])
        expect(readPoolHistory(mirror, poolId, { limit }).map((o) => o.snapshotId)).toEqual(
          limit === 0 ? [] : all.slice(-limit),
        );
    }
    expect(readPoolHistory(mirror, 'absent')).toEqual([]);
    const plan = rows(
      'EXPLAIN QUERY PLAN SELECT * FROM observations o WHERE (o.observed_at_ms >> 19) = ? AND o.pool_id = ?',
      1,
      'p',
    );
    expect(String(plan.map((r) => r[3]))).toContain('observations_period');
  });

  it('an empty mirror has no history', () => {
    expect(readPoolHistory(mirror, POOL_IDS[0] ?? '')).toEqual([]);
  });
});

describe('migration from schema 7', () => {
  it('reads exactly the same after the migration, and recording goes on as in a schema-8 mirror', async () => {
    const store = wrapSqliteMirror(mirror);
    for (let v = 0; v < 8; v++) await store.recordSnapshot(snapshotOf(v));
    const expected = await readAll(store);
    const bodies = rows('SELECT sha256, body FROM bodies ORDER BY sha256');
    for (const sql of SQLITE_BACK_TO_7) mirrorDb(mirror).exec(sql);
    expect(
      rows("SELECT name FROM sqlite_master WHERE name IN ('observations_pool', 'sqlite_autoindex_bodies_1')")
        .length,
    ).toBe(2);
    mirror.close();
    mirror = openMirror(join(dir, 'm.db'));
    expect(mirror.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    const migrated = wrapSqliteMirror(mirror);
    expect(await readAll(migrated)).toEqual(expected);
    expect(rows('SELECT sha256, body FROM bodies ORDER BY sha256')).toEqual(bodies);
    expect(
      rows("SELECT name FROM sqlite_master WHERE name IN ('observations_pool', 'sqlite_autoindex_bodies_1')"),
    ).toEqual([]);
    for (let v = 8; v < 11; v++) await migrated.recordSnapshot(snapshotOf(v));
    const fresh = wrapSqliteMirror(openMirror(join(dir, 'fresh.db')));
    try {
      for (let v = 0; v < 11; v++) await fresh.recordSnapshot(snapshotOf(v));
      expect(await readAll(migrated)).toEqual(await readAll(fresh));
    } finally {
      await fresh.close();
    }
  });
});
