/**
 * Failed attempts and retention (docs/mirror.md "Failed attempts", "Retention"), on both backends:
 * a snapshot whose every section failed, or that saw no pool where the mirror knew pools, is kept
 * as a failed attempt — never a snapshot, never counted as history, written once — and a retention
 * pass prunes raw responses past the window and archives (SQLite) or says why it cannot
 * (PostgreSQL). The rule itself is also tested alone, as the pure function it is.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { formatMirrorStatsText } from '../../src/cli/render/mirror.js';
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import { API_SNAPSHOT_SECTIONS } from '../../src/core/wire/index.js';
import { computeFailedAttempt } from '../../src/io/store/plan/failed-attempt.js';
import { applyRetention, computeMirrorGrowth, isRetentionDue } from '../../src/run/mirror.js';
import { DEFAULT_RETENTION } from '../../src/run/retention-policy.js';
import { fixtureContractId, makeSnapshot, verifiedInputOf } from './snapshot-fixture.js';
import { describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const pools = [1, 2, 3].map((n) => ({
  poolId: `p${n}`,
  contractId: fixtureContractId(n),
  reserveA: '10.0000000000',
  reserveB: '20.0000000000',
  createdAtMs: T0 - 1000,
}));

/** A snapshot in which every requested section failed (a wrong URL, the exchange down). */
function allFailed(startedAtMs: number): ApiSnapshot {
  const s = makeSnapshot(startedAtMs, []);
  const failed = { ok: false, code: 'FETCH_FAILED', reason: 'connection refused' } as const;
  const out: Record<string, unknown> = { ...s, raw: [] };
  for (const k of API_SNAPSHOT_SECTIONS) if (s[k] !== null) out[k] = failed;
  return out as unknown as ApiSnapshot;
}

it('the rule: every requested section failed, or no pool where the mirror knew pools', () => {
  expect(computeFailedAttempt(makeSnapshot(T0, pools), true)).toBeNull();
  expect(computeFailedAttempt(allFailed(T0), false)?.reason).toMatch(/every requested section failed/);
  // an exchange without pools is history on a new mirror, a failed attempt on one that knew pools
  expect(computeFailedAttempt(makeSnapshot(T0, []), false)).toBeNull();
  expect(computeFailedAttempt(makeSnapshot(T0, []), true)?.reason).toMatch(/no pool observed/);
});

describeBackends('failed attempts and retention', (backend) => {
  let t: TestMirror;
  beforeEach(async () => {
    t = await openTestMirror(backend);
  });
  afterEach(async () => {
    await t.dispose();
  });

  it('keeps a failed snapshot out of history, once', async () => {
    const v = new Map(pools.map((p) => [p.contractId, verifiedInputOf(p)]));
    const first = await t.store.recordSnapshot(makeSnapshot(T0, pools), v);
    expect(first.failedAttempt).toBeNull();
    const down = allFailed(T0 + 30_000);
    const a = await t.store.recordSnapshot(down);
    expect(a.snapshotId).toBeNull();
    expect(a.failedAttempt?.reason).toMatch(/every requested section failed/);
    const again = await t.store.recordSnapshot(down);
    expect(again).toMatchObject({ created: false, failedAttempt: { id: a.failedAttempt?.id } });
    const empty = await t.store.recordSnapshot(makeSnapshot(T0 + 60_000, []));
    expect(empty.failedAttempt?.reason).toMatch(/no pool observed/);
    expect(await t.store.countSnapshots()).toBe(1);
    expect(await t.count('failed_attempts')).toBe(2);
    expect((await t.store.readMirrorStats()).failedAttempts).toBe(2);
    // history after the failed attempts: the next real snapshot is the second one
    const next = await t.store.recordSnapshot(makeSnapshot(T0 + 90_000, pools), v);
    expect(next.failedAttempt).toBeNull();
    expect(await t.store.countSnapshots()).toBe(2);
    expect((await t.store.readLatestObservations()).length).toBe(3);
  });

  it('retention prunes raw responses past the window and archives where the backend can', async () => {
    const v = new Map(pools.map((p) => [p.contractId, verifiedInputOf(p)]));
    for (let d = 0; d < 3; d++) await t.store.recordSnapshot(makeSnapshot(T0 + d * 10 * DAY, pools), v);
    const now = T0 + 40 * DAY;
    const r = await applyRetention(t.store, DEFAULT_RETENTION, now);
    // raw kept 7 days: all three snapshots are older
    expect(r.pruned.snapshots).toBe(3);
    expect(await t.count('responses')).toBe(0);
    expect(await t.store.countSnapshots()).toBe(3);
    if (backend === 'sqlite') {
      expect(r.archiveSkipped).toBeNull();
      expect(r.archived?.cutoffMs).toBe(now - 30 * DAY);
      expect(r.archived?.observations).toBeGreaterThan(0);
    } else {
      expect(r.archived).toBeNull();
      expect(r.archiveSkipped).toMatch(/postgres mirror keeps every row/);
    }
    // a second pass has nothing left to do
    const again = await applyRetention(t.store, DEFAULT_RETENTION, now);
    expect(again.pruned.snapshots).toBe(0);
    expect(await applyRetention(t.store, { keepRawMs: null, archiveAfterMs: null }, now)).toMatchObject({
      archived: null,
      archiveSkipped: null,
    });
  });
});

it('applies retention at most once an hour, and projects growth only over an hour of snapshots', () => {
  expect(isRetentionDue(null, T0)).toBe(true);
  expect(isRetentionDue(T0, T0 + 3_599_999)).toBe(false);
  expect(isRetentionDue(T0, T0 + 3_600_000)).toBe(true);
  const stats = {
    path: 'm.db',
    schemaVersion: 12,
    fileBytes: 2 * 1024 * 1024,
    freeBytes: 1024 * 1024,
    tables: [],
    snapshots: 2,
    snapshotsWithRaw: 2,
    pools: 1,
    contracts: 1,
    observations: 2,
    firstSnapshotMs: T0,
    lastSnapshotMs: T0 + DAY / 2,
    bytesPerObservation: 1,
    failedAttempts: 0,
  };
  expect(computeMirrorGrowth(stats)).toEqual({
    bytesPerDay: 2 * 1024 * 1024,
    projected30dBytes: 61 * 1024 * 1024,
  });
  expect(computeMirrorGrowth({ ...stats, lastSnapshotMs: T0 + 60_000 })).toBeNull();
  expect(formatMirrorStatsText(stats)).toContain(
    'growth: 2.0 MiB per day since the first snapshot; in 30 days at this rate, with nothing pruned: 61.0 MiB',
  );
  expect(formatMirrorStatsText({ ...stats, lastSnapshotMs: T0 + 60_000 })).toContain(
    'growth: - (the snapshots span less than an hour)',
  );
});
