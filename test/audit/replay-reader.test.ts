/**
 * Replay's reader thread (src/run/replay-reader.ts, src/run/replay-read-thread.ts): reading the
 * mirror on another thread while this one verifies gives exactly the in-process report (tampered
 * contracts, a period), in small batches so that the read-ahead limit is exercised, whether the
 * reader verifies none, all or (the default) the batches it reads while ahead; a blob that does not
 * inflate is the same StoreError STORE_CORRUPT as in-process; `--jobs auto` reads on a thread only
 * for large mirrors with a second core left free; the observations come on a stream of their own,
 * beside the batches (the read-ahead limit does not hold them back). The reader runs compiled from
 * dist/run (the suite's globalSetup builds it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/audit/index.js';
import { StoreError } from '../../src/errors/store.js';
import {
  chooseReplayReader,
  defaultReplayJobs,
  type ReplayReport,
  runReplay,
  sampleIdleCores,
} from '../../src/run/replay.js';
import { locateReplayReader, READ_AHEAD, startReplayReader } from '../../src/run/replay-read-thread.js';
import { buildReplayMirror } from './replay-mirror.js';

let dir: string;
let path: string;
const N = 240;
const T0 = 1_790_000_000_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-replay-reader-'));
  path = join(dir, 'm.sqlite');
  buildReplayMirror(path, N, 40, 'replay-reader');
  const db = new Database(path);
  const ids = db
    .prepare('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id')
    .pluck()
    .all();
  db.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[5]);
  db.prepare('UPDATE contracts SET blob = substr(blob, 1, 20), blob_dict = NULL WHERE contract_id = ?').run(
    ids[77],
  );
  db.close();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A report without its timings and thread choices. */
function comparable(r: ReplayReport): unknown {
  const { durationMs, contractsPerSecond, phasesMs, readerThread, ...summary } = r.summary;
  return { summary, findings: r.findings, checks: r.checks };
}

it.each([
  ['the whole mirror', {}],
  ['a period', { fromMs: T0 + 1000, toMs: T0 + 4000 }],
])(
  'a reader thread gives exactly the in-process report (%s)',
  async (_, period) => {
    const base = { mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, jobs: 1, batchSize: 7, ...period };
    const inProcess = await runReplay({ ...base, readerThread: false });
    expect(inProcess.summary.readerThread).toBe(false);
    // the reader verifying none, every, or (the default) the batches it reads while ahead
    for (const readerVerifies of ['never', 'always', undefined] as const) {
      const by = { main: 0, worker: 0, reader: 0 };
      const threaded = await runReplay({
        ...base,
        readerThread: true,
        ...(readerVerifies === undefined ? {} : { readerVerifies }),
        onBatch: (t, n) => {
          by[t] += n;
        },
      });
      expect(threaded.summary.readerThread).toBe(true);
      expect(threaded.summary.contracts).toBeGreaterThan(0);
      expect(threaded.summary.observations).toBeGreaterThan(threaded.summary.contracts - 1);
      expect(threaded.findings.map((f) => f.code)).toContain('PROOF_BLOB_MALFORMED');
      expect(JSON.stringify(comparable(threaded))).toBe(JSON.stringify(comparable(inProcess)));
      expect(by.main + by.reader).toBe(threaded.summary.contracts);
      if (readerVerifies === 'never') expect(by.reader).toBe(0);
      if (readerVerifies === 'always') expect(by.main).toBe(0);
    }
  },
  60_000,
);

it('a blob that does not inflate is STORE_CORRUPT from the reader thread as in-process', async () => {
  const copy = join(dir, 'corrupt.sqlite');
  const src = new Database(path);
  await src.backup(copy);
  src.close();
  const db = new Database(copy);
  db.prepare(
    "UPDATE contracts SET blob = x'ffffffff' WHERE ckey = (SELECT max(ckey) FROM contracts WHERE blob_dict IS NOT NULL)",
  ).run();
  db.close();
  const run = (readerThread: boolean) =>
    runReplay({ mirrorPath: copy, profile: DEFAULT_RESERVE_PROFILE, jobs: 1, batchSize: 16, readerThread });
  const inProcess = await run(false).catch((e: unknown) => e);
  const threaded = await run(true).catch((e: unknown) => e);
  expect(inProcess).toBeInstanceOf(StoreError);
  expect(threaded).toBeInstanceOf(StoreError);
  expect((threaded as StoreError).code).toBe('STORE_CORRUPT');
  expect((threaded as StoreError).shortMessage).toBe((inProcess as StoreError).shortMessage);
}, 60_000);

it('the reader sends the observations beside the batches, not after them (read-ahead full, none taken)', async () => {
  const url = locateReplayReader();
  expect(url).not.toBeNull();
  const reader = startReplayReader(url as URL, {
    mirrorPath: path,
    range: {},
    batchSize: 7,
    observations: {},
  });
  try {
    // no batch taken: the reader is held at READ_AHEAD batches, yet every observation arrives
    let observations = 0;
    for await (const rows of reader.observationPages()) observations += rows.length;
    expect(observations).toBeGreaterThanOrEqual(N);
    let contracts = 0;
    let batches = 0;
    for await (const b of reader.batches()) {
      contracts += b.kind === 'batch' ? b.batch.contractIds.length : b.contractIds.length;
      batches++;
    }
    expect(batches).toBeGreaterThan(2 * READ_AHEAD);
    expect(contracts).toBe(N);
  } finally {
    await reader.close();
  }
}, 60_000);

it('--jobs auto reads on a thread only for ≥ 20,000 contracts, ≥ 2 cores and room for two threads', () => {
  expect(chooseReplayReader(19_999, 2, 2)).toBe(false);
  expect(chooseReplayReader(20_000, 2, 2)).toBe(true);
  expect(chooseReplayReader(20_000, 2, 1.5)).toBe(true);
  expect(chooseReplayReader(20_000, 2, 1.2)).toBe(false);
  expect(chooseReplayReader(1_000_000, 8, 1.6)).toBe(true);
  expect(chooseReplayReader(1_000_000, 8, 0.9)).toBe(false);
  expect(chooseReplayReader(1_000_000, 1, 1)).toBe(false);
});

it('sampleIdleCores gives a count of usable cores', async () => {
  const idle = await sampleIdleCores(100);
  expect(idle).toBeGreaterThanOrEqual(0);
  expect(idle).toBeLessThanOrEqual(defaultReplayJobs());
});

// where the kernel lists more cores than this process may use, the count is capped and says nothing here
it.skipIf(cpus().length !== defaultReplayJobs())(
  'sampleIdleCores counts this thread spinning as busy',
  async () => {
    const t0 = Date.now();
    const sample = sampleIdleCores(200);
    while (Date.now() - t0 < 200) {
      // spin: the sample's timer fires only after this loop, so the whole window has this core busy
    }
    expect(await sample).toBeLessThanOrEqual(defaultReplayJobs() - 0.5);
  },
);
