/**
 * Replay's report on a tampered mirror (src/run/replay.ts): one stored reserve changed, one blob
 * truncated, one blob byte flipped are each caught; the report does not depend on how the mirror is
 * cut into batches (whole mirror and a period, batches smaller than a snapshot or larger than the
 * mirror); the CLI's JSON is the library's report; `--jobs`, kept for one version, changes nothing
 * but one notice on stderr; a blob that does not inflate is StoreError STORE_CORRUPT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/cli/render/style.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { StoreError } from '../../src/errors/store.js';
import { type ReplayReport, runReplay } from '../../src/run/replay.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { buildReplayMirror } from './replay-mirror.js';

let dir: string;
let path: string;
const N = 300;
const JOBS_NOTICE =
  'reserve-audit: --jobs is no longer used: replay verifies in one thread (docs/bench/audit.md)';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-replay-batches-'));
  path = join(dir, 'm.sqlite');
  buildReplayMirror(path, N, 100, 'replay-batches');
  // tamper: one stored reserve changed, one blob truncated, one blob byte flipped
  const db = new Database(path);
  const ids = db
    .prepare('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id')
    .pluck()
    .all();
  db.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[10]);
  db.prepare('UPDATE contracts SET blob = substr(blob, 1, 20), blob_dict = NULL WHERE contract_id = ?').run(
    ids[150],
  );
  const blob = db.prepare('SELECT blob FROM contracts WHERE contract_id = ?').pluck().get(ids[299]) as Buffer;
  blob[blob.length - 40] = (blob[blob.length - 40] ?? 0) ^ 1;
  db.prepare('UPDATE contracts SET blob = ?, blob_dict = NULL WHERE contract_id = ?').run(blob, ids[299]);
  db.close();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A report without its timings (what differs from run to run). */
function comparable(r: ReplayReport): unknown {
  const { durationMs, contractsPerSecond, phasesMs, ...summary } = r.summary;
  return { summary, findings: r.findings, checks: r.checks };
}

/** A CLI --json report, the library's report as it is printed (only the checks that did not pass). */
function printed(r: ReplayReport): unknown {
  const { durationMs, contractsPerSecond, phasesMs, ...summary } = r.summary;
  return JSON.parse(
    stringifyJson({
      summary,
      findings: r.findings,
      checks: r.checks.filter((c) => c.status !== 'pass'),
    }),
  );
}

describe('replay of a tampered mirror', () => {
  it('catches each tampered contract; the CLI prints the same report', async () => {
    const one = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE });
    expect(one.summary).toMatchObject({
      jobs: 1,
      readerThread: false,
      contracts: N,
      verified: N - 3,
      outcome: 'failed',
    });
    expect(one.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['PROOF_BLOB_MALFORMED', 'PROOF_FIELD_MISMATCH']),
    );
    expect(one.checks.filter((c) => c.name === 'replay.contract' && c.status !== 'pass')).toHaveLength(3);
    const r = await runCliForTest(['replay', '--mirror', path, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('--jobs');
    const cli = JSON.parse(r.stdout) as { summary: Record<string, unknown> };
    const { durationMs, contractsPerSecond, phasesMs, ...summary } = cli.summary;
    expect({ ...cli, summary }).toEqual(printed(one));
  }, 60_000);

  it('--jobs (kept for one version) is ignored with one notice on stderr, whatever its value', async () => {
    const plain = await runCliForTest(['replay', '--mirror', path, '--json']);
    const strip = (stdout: string): unknown => {
      const j = JSON.parse(stdout) as { summary: Record<string, unknown> };
      const { durationMs, contractsPerSecond, phasesMs, ...summary } = j.summary;
      return { ...j, summary };
    };
    for (const v of ['1', '2', 'auto', '0']) {
      const r = await runCliForTest(['replay', '--mirror', path, '--jobs', v, '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n').filter((l) => l.includes('--jobs'))).toEqual([JOBS_NOTICE]);
      expect(strip(r.stdout)).toEqual(strip(plain.stdout));
      expect((JSON.parse(r.stdout) as { summary: { jobs: number } }).summary.jobs).toBe(1);
    }
  }, 60_000);

  it('the report does not depend on the batch size, for the whole mirror and a period', async () => {
    const db = new Database(path, { readonly: true });
    const [lo, hi] = db
      .prepare('SELECT min(observed_at_ms), max(observed_at_ms) FROM observations')
      .raw(true)
      .get() as [number, number];
    db.close();
    // the whole mirror, and its middle half (observations by time, contracts by ledger time)
    const quarter = Math.floor((hi - lo) / 4);
    for (const range of [{}, { fromMs: lo + quarter, toMs: hi - quarter }]) {
      const base = { mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, ...range };
      const whole = await runReplay(base);
      expect(whole.summary.contracts).toBeGreaterThan(0);
      expect(whole.summary.observations).toBeGreaterThanOrEqual(whole.summary.contracts);
      for (const batchSize of [1, 7, 8, 32, 1000]) {
        const cut = await runReplay({ ...base, batchSize });
        expect(JSON.stringify(comparable(cut))).toBe(JSON.stringify(comparable(whole)));
      }
    }
  }, 60_000);

  it('a blob that does not inflate is StoreError STORE_CORRUPT', async () => {
    const copy = join(dir, 'corrupt.sqlite');
    const src = new Database(path);
    await src.backup(copy);
    src.close();
    const db = new Database(copy);
    db.prepare(
      "UPDATE contracts SET blob = x'ffffffff' WHERE ckey = (SELECT max(ckey) FROM contracts WHERE blob_dict IS NOT NULL)",
    ).run();
    db.close();
    const e = await runReplay({
      mirrorPath: copy,
      profile: DEFAULT_RESERVE_PROFILE,
      batchSize: 16,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StoreError);
    expect((e as StoreError).code).toBe('STORE_CORRUPT');
  }, 60_000);
});
