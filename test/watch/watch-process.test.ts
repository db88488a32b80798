/**
 * `reserve-audit watch` as a process (spawned from dist/) against the reference server behind the
 * tampering proxy (test/helpers/tamper.ts), with a local webhook receiver: a tamper switched on
 * mid-run gives exactly one firing alert, switched off exactly one resolved alert; /metrics,
 * /healthz and /readyz answer on the metrics port; the exchange's credentials and the webhook's
 * path never reach the logs or the bodies; SIGTERM finishes the step and exits 0.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, waitFor } from '../cli/helpers/spawn-cli.js';
import { bump } from '../e2e/tamper-audit.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';
import { findMetricsUrl, parseJsonLog, startWebhookReceiver, type WebhookReceiver } from './helpers.js';

type ProofBody = { data: { pools: { reserve_contract: { reserve_a: string } }[] } };

/** reserve_a of the first pool changed in the JSON only (the blob says otherwise): PROOF_FIELD_MISMATCH */
const tamperReserve: Tamper = (ctx) => {
  if (ctx.path !== '/pools/proof') return undefined;
  const b = ctx.json as ProofBody;
  const rc = b.data.pools[0]!.reserve_contract;
  rc.reserve_a = bump(rc.reserve_a);
  return { json: b };
};

let s: AuditServer;
let hook: WebhookReceiver;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'watch' });
  // the first delivery fails (503): the sender retries it
  hook = await startWebhookReceiver({ failFirst: 1 });
  dir = mkdtempSync(join(tmpdir(), 'watch-process-'));
});
afterAll(async () => {
  await hook?.close();
  await s?.close();
});

describe('watch against a tamper switched on and off', () => {
  it('one firing, one resolved; metrics and health answer; SIGTERM exits 0', async () => {
    const withCredentials = s.base.replace('http://', 'http://auditor:hunter2@');
    const run = spawnCli([
      'watch',
      '--base-url',
      withCredentials,
      '--mirror',
      join(dir, 'm.db'),
      '--every',
      '400ms',
      '--audit-every',
      '1200ms',
      '--metrics-port',
      '0',
      '--alert-webhook',
      hook.url,
      '--log-format',
      'json',
      '--max-rps',
      '1000',
    ]);
    const events = (): Record<string, unknown>[] => parseJsonLog(run.output.stdout);
    const audits = (): Record<string, unknown>[] => events().filter((e) => e.event === 'audit');
    try {
      await waitFor(() => audits().some((e) => e.outcome === 'passed'), 20_000, 'a first passing audit');
      const metricsUrl = findMetricsUrl(run.output.stdout);
      expect(metricsUrl).not.toBeNull();
      const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(/^reserve_audit_audit_verdict 0$/m);
      expect(metrics).toMatch(/^reserve_audit_pools\{level="id-verified"\} \d+$/m);
      expect(metrics).toMatch(/^reserve_audit_http_requests_total\{endpoint="\/pools\/proof"\} \d+$/m);
      expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${metricsUrl}/readyz`)).status).toBe(200);

      s.setTamper(tamperReserve);
      await waitFor(() => hook.bodies.some((b) => b.status === 'firing'), 20_000, 'the firing alert');
      const verdict = await (await fetch(`${metricsUrl}/metrics`)).text();
      expect(verdict).toMatch(/^reserve_audit_audit_verdict 1$/m);
      expect(verdict).toMatch(
        /^reserve_audit_findings\{code="PROOF_FIELD_MISMATCH",severity="error"\} [1-9]/m,
      );
      // a second tampered audit: still one firing
      const failedSoFar = audits().filter((e) => e.outcome === 'failed').length;
      await waitFor(
        () => audits().filter((e) => e.outcome === 'failed').length > failedSoFar,
        20_000,
        'another failed audit',
      );
      s.setTamper(undefined);
      await waitFor(() => hook.bodies.some((b) => b.status === 'resolved'), 20_000, 'the resolved alert');
      // two more audits after the resolution: nothing new
      const passedSoFar = audits().filter((e) => e.outcome === 'passed').length;
      await waitFor(
        () => audits().filter((e) => e.outcome === 'passed').length >= passedSoFar + 2,
        20_000,
        'two more passing audits',
      );
    } finally {
      s.setTamper(undefined);
      run.child.kill('SIGTERM');
    }
    expect(await run.exited).toEqual({ code: 0, signal: null });
    const log = events();
    expect(log.map((e) => e.event)).toContain('stopping');
    expect(log[log.length - 1]?.event).toBe('watch-stopped');

    expect(hook.bodies.map((b) => `${b.alert} ${b.status}`)).toEqual([
      'audit-failed firing',
      'audit-failed resolved',
    ]);
    const [firing, resolved] = hook.bodies;
    expect(firing).toMatchObject({ status: 'firing', severity: 'critical', base_url: s.base });
    expect(firing?.codes).toContain('PROOF_FIELD_MISMATCH');
    expect(firing?.evidence).toMatch(/PROOF_FIELD_MISMATCH/);
    expect(firing?.pools).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(resolved).toMatchObject({ status: 'resolved', severity: 'critical', base_url: s.base });
    // the first POST was refused (503) and retried
    expect(hook.attempts()).toBe(3);
    expect(log.some((e) => e.event === 'alert-retry')).toBe(true);

    // steps never overlap: each starts after the previous one ended
    const steps = log
      .filter((e) => e.event === 'snapshot' || e.event === 'audit')
      .map((e) => ({
        start: e.started_at_ms as number,
        end: (e.started_at_ms as number) + (e.duration_ms as number),
      }));
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.start).toBeGreaterThanOrEqual(steps[i - 1]!.end);

    // no secret anywhere: neither the exchange's password nor the webhook's path
    expect(run.output.stdout).not.toMatch(/hunter2|secret-path/);
    expect(run.output.stderr).toBe('');
    expect(JSON.stringify(hook.bodies)).not.toMatch(/hunter2/);
  }, 90_000);
});
