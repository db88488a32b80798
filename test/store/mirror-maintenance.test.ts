/**
 * `reserve-audit mirror stats` / `mirror prune --keep-raw` (src/io/store/maintenance.ts,
 * src/run/mirror.ts): on a mirror recorded from the reference server with swaps in between,
 * pruning the raw responses and vacuuming shrinks the file, keeps snapshots, contracts and
 * observations, and replay and history give exactly the results they gave before.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { iterateContracts, openMirror, readMirrorStats } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { loadPoolSeries, openMirrorForReading } from '../../src/run/history.js';
import { runMirrorPrune } from '../../src/run/mirror.js';
import { runReplay } from '../../src/run/replay.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

let server: ReferenceServer;
let dir: string;
let path: string;

beforeAll(async () => {
  server = await startReferenceServer();
  dir = mkdtempSync(join(tmpdir(), 'ra-mirror-maint-'));
  path = join(dir, 'm.db');
  for (let i = 0; i < 3; i++) {
    const r = await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', path]);
    expect(r.code).toBe(0);
    server.exchange.transfer({
      sender: 'alice::1220aa',
      instrument: server.exchange.cc(),
      amount: '100',
      memo: 'USDCx',
    });
    server.clock.advanceMs(120_000);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const replay = async (mirrorPath = path) => {
  const r = await runReplay({ mirrorPath, profile: DEFAULT_RESERVE_PROFILE });
  const { durationMs, contractsPerSecond, phasesMs, ...summary } = r.summary;
  return { summary, findings: r.findings, checks: r.checks };
};

const history = async (mirrorPath = path) => {
  const m = await openMirrorForReading(mirrorPath);
  try {
    return await loadPoolSeries(m);
  } finally {
    await m.close();
  }
};

describe('mirror stats and prune', () => {
  it('stats: size by table, snapshots, pools, time span (text and JSON)', async () => {
    const text = await runCliForTest(['mirror', 'stats', '--mirror', path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^mirror .*m\.db \(schema \d+\): /);
    expect(text.stdout).toContain('snapshots 3 (raw responses kept for 3)');
    const json = await runCliForTest(['mirror', 'stats', '--mirror', path, '--json']);
    const s = JSON.parse(json.stdout) as {
      snapshots: number;
      pools: number;
      tables: { name: string; bytes: number }[];
    };
    expect(s.snapshots).toBe(3);
    expect(s.pools).toBe(server.exchange.pools().filter((p) => p.active).length);
    expect(s.tables.find((t) => t.name === 'bodies')?.bytes).toBeGreaterThan(0);
  });

  it('rows as a mirror from before schema 4 holds them (raw blobs, full observations) replay and read the same', async () => {
    const old = join(dir, 'old.db');
    const m = openMirror(path);
    mirrorDb(m).exec(`VACUUM INTO '${old}'`);
    m.close();
    const o = openMirror(old);
    try {
      const db = mirrorDb(o);
      expect(
        Number(db.prepare('SELECT count(*) FROM contracts WHERE blob_dict IS NOT NULL').pluck().get()),
      ).toBeGreaterThan(0);
      expect(
        Number(db.prepare('SELECT count(*) FROM observations WHERE state_is_contract').pluck().get()),
      ).toBeGreaterThan(0);
      const setRaw = db.prepare('UPDATE contracts SET blob = ?, blob_dict = NULL WHERE contract_id = ?');
      const contracts = [...iterateContracts(o)];
      db.transaction(() => {
        for (const c of contracts) setRaw.run(c.blob, c.contractId);
        db.exec(`DELETE FROM blob_dictionaries;
          UPDATE observations SET
            proof_reserve_a = coalesce(proof_reserve_a, CASE WHEN contract_key IS NOT NULL THEN reserve_a END),
            proof_reserve_b = coalesce(proof_reserve_b, CASE WHEN contract_key IS NOT NULL THEN reserve_b END),
            state_contract_id = CASE WHEN state_is_contract
              THEN (SELECT c.contract_id FROM contracts c WHERE c.ckey = observations.contract_key) ELSE state_contract_id END,
            state_is_contract = 0,
            blob_sha256 = coalesce(blob_sha256, (SELECT c.blob_sha256 FROM contracts c WHERE c.ckey = observations.contract_key)),
            ledger_created_at = coalesce(ledger_created_at,
              (SELECT c.ledger_created_at FROM contracts c WHERE c.ckey = observations.contract_key))`);
      })();
      for (const c of contracts) expect(createHash('sha256').update(c.blob).digest('hex')).toBe(c.blobSha256);
    } finally {
      o.close();
    }
    const withoutPath = (r: Awaited<ReturnType<typeof replay>>) => ({
      ...r,
      summary: { ...r.summary, mirror: '' },
    });
    expect(withoutPath(await replay(old))).toEqual(withoutPath(await replay()));
    expect(await history(old)).toEqual(await history());
  }, 60_000);

  it('prune --keep-raw: raw responses of old snapshots go, replay and history give the same results', async () => {
    const replayBefore = await replay();
    const historyBefore = await history();
    const m = openMirror(path, { readonly: true });
    const before = readMirrorStats(m);
    m.close();
    // a window longer than the mirror's age prunes nothing
    const keep = await runCliForTest(['mirror', 'prune', '--mirror', path, '--keep-raw', '3650d', '--json']);
    expect(keep.code).toBe(0);
    expect((JSON.parse(keep.stdout) as { pruned: { snapshots: number } }).pruned.snapshots).toBe(0);
    const r = await runCliForTest(['mirror', 'prune', '--mirror', path, '--keep-raw', '0', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      pruned: { snapshots: number; responses: number; bodies: number };
      vacuum: { beforeBytes: number; afterBytes: number };
      stats: {
        snapshots: number;
        snapshotsWithRaw: number;
        contracts: number;
        observations: number;
        fileBytes: number;
      };
    };
    expect(out.pruned.snapshots).toBe(3);
    expect(out.pruned.bodies).toBeGreaterThan(0);
    expect(out.stats).toMatchObject({
      snapshots: 3,
      snapshotsWithRaw: 0,
      contracts: before.contracts,
      observations: before.observations,
    });
    expect(out.stats.fileBytes).toBeLessThan(before.fileBytes);
    expect(out.vacuum.afterBytes).toBeLessThan(out.vacuum.beforeBytes);
    expect(await replay()).toEqual(replayBefore);
    expect(await history()).toEqual(historyBefore);
    // a pruned mirror keeps recording
    const again = await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', path]);
    expect(again.code).toBe(0);
  }, 60_000);

  it('prune --archive: real contracts go into chunks (IDs read from their blobs), replay and history give the same', async () => {
    const replayBefore = await replay();
    const historyBefore = await history();
    const m = openMirror(path, { readonly: true });
    const before = readMirrorStats(m);
    m.close();
    // recorded just now: prune as if two hours had passed
    const out = await runMirrorPrune({
      path,
      keepRawMs: 0,
      archiveMs: 3_600_000,
      now: () => Date.now() + 7_200_000,
    });
    if (out.archived === null) throw new Error('expected an archive report');
    expect(out.archived.contracts).toBeGreaterThan(0);
    expect(out.archived.observations).toBeGreaterThan(0);
    expect(out.stats).toMatchObject({ contracts: before.contracts, observations: before.observations });
    // the archived contract IDs are not stored as text: the chunk points into each blob
    const db = mirrorDb(openMirror(path, { readonly: true }));
    const body = db.prepare('SELECT body FROM archive_contract_chunks LIMIT 1').pluck().get() as Buffer;
    const { inflateRawSync } = await import('node:zlib');
    expect(inflateRawSync(body).toString('latin1')).toContain('"x":[');
    db.close();
    expect(await replay()).toEqual(replayBefore);
    expect(await history()).toEqual(historyBefore);
    const text = await runCliForTest([
      'mirror',
      'prune',
      '--mirror',
      path,
      '--keep-raw',
      '0',
      '--archive',
      '1h',
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/archived before .*: 0 contracts in 0 chunks, 0 observations in 0 chunks/);
    // an archived mirror keeps recording
    const again = await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', path]);
    expect(again.code).toBe(0);
  }, 60_000);

  it('usage errors: prune needs --keep-raw as a duration; stats takes none (exit 2)', async () => {
    const none = await runCliForTest(['mirror', 'prune', '--mirror', path]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('"--keep-raw" expected a duration like 7d');
    const bad = await runCliForTest(['mirror', 'prune', '--mirror', path, '--keep-raw', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"--keep-raw" expected a duration like 7d, 12h or 30m, got "soon"');
    const stats = await runCliForTest(['mirror', 'stats', '--mirror', path, '--keep-raw', '1d']);
    expect(stats.code).toBe(2);
    const short = await runCliForTest([
      'mirror',
      'prune',
      '--mirror',
      path,
      '--keep-raw',
      '0',
      '--archive',
      '10m',
    ]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('"--archive" expected a duration of 1h to 3650d, got "10m"');
    const statsArchive = await runCliForTest(['mirror', 'stats', '--mirror', path, '--archive', '1d']);
    expect(statsArchive.code).toBe(2);
    expect(statsArchive.stderr).toContain('"--archive" expected with mirror prune only');
    const missing = await runCliForTest(['mirror', 'stats', '--mirror', join(dir, 'none.db')]);
    expect(missing.code).toBe(2);
  });
});
