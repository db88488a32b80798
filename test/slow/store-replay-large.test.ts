/**
 * Slow: `replay` over 100,000 real v12 contracts (1,000 pools × 100 snapshots): every contract
 * verified, the same report in 512-contract batches as in 4,096-contract ones; prints the rates (the
 * ≥ 30,000/s goal is measured by `npm run bench:audit`, not asserted here, because the shared build
 * machine's load decides it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { type ReplayReport, runReplay } from '../../src/run/replay.js';
import { buildReplayMirror } from '../audit/replay-mirror.js';

const N = Number(process.env.SLOW_REPLAY_CONTRACTS ?? 100_000);

describe('replay of a 100,000-contract mirror', () => {
  it('every contract verified, whatever the batch size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-replay-slow-'));
    const path = join(dir, 'm.sqlite');
    try {
      buildReplayMirror(path, N);
      const run = async (batchSize: number): Promise<ReplayReport> => {
        const r = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE, batchSize });
        const s = r.summary;
        process.stderr.write(
          `replay, batches of ${batchSize}: ${s.contracts} contracts, contract phase ${Math.round(s.contracts / (s.phasesMs.contracts / 1000))}/s, whole run ${s.contractsPerSecond}/s\n`,
        );
        return r;
      };
      const one = await run(512);
      const many = await run(4096);
      expect(one.summary).toMatchObject({ contracts: N, verified: N, outcome: 'passed' });
      expect(many.summary).toMatchObject({ contracts: N, verified: N, outcome: 'passed' });
      expect(many.findings).toEqual(one.findings);
      expect(many.checks).toEqual(one.checks);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
