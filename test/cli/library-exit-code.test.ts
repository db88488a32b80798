/**
 * The library pipelines with a verdict always return `summary.exitCode` (issue 25): runAudit and
 * runReplay called without any exit-code map give 0/1/2 from the one table
 * (src/core/audit/exit-code.ts), which is also the CLI's map.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_COULD_NOT_CHECK, EXIT_FAILED, EXIT_OK, exitCodeOf } from '../../src/cli/exit-codes.js';
import { AUDIT_EXIT_CODES, computeAuditExitCode } from '../../src/core/audit/index.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { runAudit } from '../../src/run/audit.js';
import { runReplay } from '../../src/run/replay.js';
import { type RunningServer, startServer } from '../../src/server/serve.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: ':memory:',
    contractIdVersion: 'v12',
    seed: 'library-exit-code',
    simulation: false,
    logger: { info() {}, error() {} },
  });
});
afterAll(async () => {
  await server?.close();
});

describe('summary.exitCode', () => {
  it('one table: the core and the CLI agree', () => {
    for (const outcome of ['passed', 'failed', 'could-not-check'] as const)
      expect(exitCodeOf(outcome)).toBe(computeAuditExitCode(outcome));
    expect(AUDIT_EXIT_CODES).toEqual({
      passed: EXIT_OK,
      failed: EXIT_FAILED,
      'could-not-check': EXIT_COULD_NOT_CHECK,
    });
  });

  it('runAudit and runReplay fill it without being given a map', async () => {
    const mirrorPath = join(mkdtempSync(join(tmpdir(), 'library-exit-')), 'mirror.db');
    const audit = await runAudit({ baseUrl: `${server.url}/v1/public`, mirrorPath });
    expect(audit.summary.outcome).toBe('passed');
    expect(audit.summary.exitCode).toBe(0);
    const replay = await runReplay({ mirrorPath, profile: DEFAULT_RESERVE_PROFILE });
    expect(replay.summary.outcome).toBe('passed');
    expect(replay.summary.exitCode).toBe(0);
  });
});
