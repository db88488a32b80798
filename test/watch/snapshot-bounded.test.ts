/**
 * A bounded mirror (issue 27 item 4). `snapshot --every` applies the same retention policy as
 * `watch` (applyRetention, src/run/mirror.ts): after the first snapshot of a run, then hourly. `--keep-raw 0`
 * drops the raw responses of every snapshot older than the moment it runs; `--no-retention` keeps
 * them all; `--archive-after` on a PostgreSQL mirror is a usage error. A snapshot of a wrong URL
 * (every section failed, no pool where the mirror holds pools) is kept as a failed attempt, not as
 * history — by `snapshot` (exit 2) and by an audit of that URL (its run is recorded, without a
 * snapshot) — so the mirror's count of snapshots (the history the audit reports) does not change.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorStore } from '../../src/io/store/index.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer();
  dir = mkdtempSync(join(tmpdir(), 'snapshot-retention-'));
});
afterAll(async () => {
  await server?.close();
});

async function snapshotsWithRaw(path: string): Promise<{ snapshots: number; withRaw: number }> {
  const m = await openMirrorStore(path);
  try {
    const s = await m.readMirrorStats();
    return { snapshots: s.snapshots, withRaw: s.snapshotsWithRaw };
  } finally {
    await m.close();
  }
}

describe('snapshot --every retention', () => {
  it('--keep-raw 0 prunes the first snapshot’s raw responses after it; --no-retention keeps all', async () => {
    const pruned = join(dir, 'pruned.db');
    const a = await runCliForTest([
      'snapshot',
      '--base-url',
      server.base,
      '--mirror',
      pruned,
      '--every',
      '100ms',
      '--count',
      '2',
      '--keep-raw',
      '0',
    ]);
    expect(a.code).toBe(0);
    expect(a.stderr).toMatch(/snapshot 1\/2: retention: pruned the raw responses of 1 snapshots/);
    expect(await snapshotsWithRaw(pruned)).toEqual({ snapshots: 2, withRaw: 1 });

    const kept = join(dir, 'kept.db');
    const b = await runCliForTest([
      'snapshot',
      '--base-url',
      server.base,
      '--mirror',
      kept,
      '--every',
      '100ms',
      '--count',
      '2',
      '--no-retention',
    ]);
    expect(b.code).toBe(0);
    expect(b.stderr).not.toMatch(/retention/);
    expect(await snapshotsWithRaw(kept)).toEqual({ snapshots: 2, withRaw: 2 });
  });

  it('--archive-after on a PostgreSQL mirror is a usage error (it keeps every row)', async () => {
    for (const cmd of ['snapshot', 'watch']) {
      const r = await runCliForTest([
        cmd,
        '--base-url',
        server.base,
        '--mirror',
        'postgres://u@127.0.0.1:1/db',
        '--every',
        '1s',
        '--archive-after',
        '30d',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/"--archive-after" expected an SQLite mirror, got a PostgreSQL URL/);
    }
  });
});

describe('a snapshot of a wrong URL is a failed attempt, not history', () => {
  it('a wrong URL after a good snapshot: exit 2, kept as a failed attempt; the audit of it records its run only', async () => {
    const path = join(dir, 'wrong-url.db');
    expect((await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', path])).code).toBe(0);
    const wrong = server.base.replace('/v1/public', '/v9/nothing');
    const r = await runCliForTest(['snapshot', '--base-url', wrong, '--mirror', path, '--timeout', '2000']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({
      snapshot: null,
      pools: 0,
      failedAttempt: expect.stringMatching(/^every requested section failed/),
    });
    expect(r.stderr).toMatch(
      /snapshot 1\/1: kept as failed attempt #1, not as history: every requested section failed/,
    );
    expect((await snapshotsWithRaw(path)).snapshots).toBe(1);
    const stats = await runCliForTest(['mirror', 'stats', '--mirror', path, '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ snapshots: 1, failedAttempts: 1 });
    // an audit of the wrong URL could not check: its run is recorded, its snapshot is not
    const wrongAudit = await runCliForTest([
      'audit',
      '--base-url',
      wrong,
      '--mirror',
      path,
      '--json',
      '--timeout',
      '2000',
    ]);
    expect(wrongAudit.code).toBe(2);
    expect((await snapshotsWithRaw(path)).snapshots).toBe(1);
    expect(
      JSON.parse((await runCliForTest(['mirror', 'stats', '--mirror', path, '--json'])).stdout),
    ).toMatchObject({
      failedAttempts: 2,
    });
    const m = await openMirrorStore(path);
    try {
      const runs = await m.readAuditRuns();
      expect(runs.map((x) => [x.outcome, x.snapshotId])).toEqual([['could-not-check', null]]);
    } finally {
      await m.close();
    }
    // the audit's history counts only the real snapshot
    const audit = await runCliForTest(['audit', '--base-url', server.base, '--mirror', path, '--json']);
    expect((JSON.parse(audit.stdout) as { summary: { coverage: unknown } }).summary.coverage).toMatchObject({
      history: { text: 'history: 1 earlier snapshot' },
    });
  });
});
