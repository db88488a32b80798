/**
 * FAULT scenarios: an exchange that cannot be audited (connection refused, timeouts, 500s,
 * truncated and non-JSON bodies, wrong shapes, oversized responses) gives exit 2 with a clear
 * message — never a pass, never a fail.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runAudit } from '../../src/run/audit.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v11', seed: 'fault' });
  // warm the server's caches so each scenario is quick
  await runAudit({ baseUrl: s.base });
}, 60_000);
afterAll(async () => {
  await s.close();
});

async function audit(
  tamper: Tamper,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  s.setTamper(tamper);
  try {
    return await runCliForTest(['audit', '--base-url', s.base, ...extra]);
  } finally {
    s.setTamper(undefined);
  }
}

const on =
  (path: string, a: ReturnType<Tamper>): Tamper =>
  (ctx) =>
    ctx.path === path ? a : undefined;

describe('FAULT scenarios → exit 2 with a clear message', () => {
  it('connection refused', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const r = await runCliForTest([
      'audit',
      '--base-url',
      `http://127.0.0.1:${port}/v1/public`,
      '--timeout',
      '2000',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not check: .*(connect|ECONNREFUSED|refused)/i);
    expect(r.stdout).toBe('');
  });

  it('a timeout on /pools/proof', async () => {
    const r = await audit(on('/pools/proof', { delayMs: 1500 }), ['--timeout', '300']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not check/);
    expect(r.stderr).toMatch(/timed out|timeout/i);
  }, 20_000);

  it('500 on /pools/state', async () => {
    // a fault that outlasts the budget (--timeout) still exits 2, naming the attempts and the faults
    const r = await audit(on('/pools/state', { status: 500, json: { error: 'boom' } }), [
      '--timeout',
      '2000',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not check: FETCH_FAILED: \/pools\/state could not be fetched: .*500/);
    expect(r.stderr).toMatch(/no usable answer in [0-9]+ attempts over [0-9.]+ s: 500 ×[0-9]+/);
    expect(r.stdout).toMatch(/^COULD NOT CHECK/);
  }, 20_000);

  it('a truncated body on /pools/proof', async () => {
    const r = await audit(on('/pools/proof', { truncate: true }), ['--timeout', '2000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not check/);
    expect(r.stderr).toMatch(/truncated ×[0-9]+/);
  }, 20_000);

  it('a non-JSON body on /aggregator/tickers', async () => {
    const r = await audit(on('/aggregator/tickers', { raw: '<html>oops</html>' }), ['--timeout', '2000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\/aggregator\/tickers could not be fetched: .*not JSON.*not JSON ×[0-9]+/);
  });

  it('a wrong shape on /pools/proof', async () => {
    const r = await audit(on('/pools/proof', { json: { data: { pools: [{ pool_id: 1 }] } } }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\/pools\/proof could not be fetched/);
  });

  it('an oversized response', async () => {
    s.setTamper(on('/stats', { raw: `{"stats":"${'x'.repeat(300_000)}"}` }));
    try {
      const r = await runAudit({ baseUrl: s.base, maxResponseBytes: 200_000, retries: 0, exitCodeOf });
      expect(r.summary.exitCode).toBe(2);
      const f = r.findings.find((x) => x.code === 'FETCH_FAILED');
      expect(f?.message).toMatch(/\/stats could not be fetched: .*(bytes|large|limit)/i);
    } finally {
      s.setTamper(undefined);
    }
  });

  it('V12 proofs without the right types are could-not-check (PROOF_UNVERIFIABLE), never a pass', async () => {
    const v12 = await startAuditServer({ version: 'v12', seed: 'fault-types' });
    try {
      const r = await runCliForTest([
        'audit',
        '--base-url',
        v12.base,
        '--json',
        '--types',
        'fixtures/types/splice-amulet-rules.types.json',
      ]);
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.stdout) as { findings: { code: string }[]; summary: { proofsProven: number } };
      expect(doc.findings.map((f) => f.code)).toContain('PROOF_UNVERIFIABLE');
      expect(doc.summary.proofsProven).toBe(0);
      expect(r.stderr).toMatch(/could not check: PROOF_UNVERIFIABLE/);
    } finally {
      await v12.close();
    }
  }, 30_000);

  it('a bad profile is exit 2 with PROFILE_INVALID', async () => {
    const r = await runCliForTest(['audit', '--base-url', s.base, '--profile', 'package.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PROFILE_INVALID');
  });

  it('a bad --timeout is a usage error (exit 2)', async () => {
    const r = await runCliForTest(['audit', '--base-url', s.base, '--timeout', '-5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"--timeout" expected an integer');
  });
});
