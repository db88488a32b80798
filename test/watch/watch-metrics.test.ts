/**
 * The watch's metrics (src/run/watch-metrics.ts) on a Registry of their own: names start with
 * reserve_audit_, the verdict is 2 until the first audit, findings are those of the last audit
 * only, per-pool series stop at --metrics-max-pools (the rest counted), endpoint labels are the
 * path below the base URL (src/run/watch-steps.ts) and bounded.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { computePoolAssurance, makeFinding, type PoolSummary } from '../../src/core/audit/index.js';
import type { AuditReport } from '../../src/run/audit.js';
import { createWatchMetrics } from '../../src/run/watch-metrics.js';
import { computeEndpointLabel } from '../../src/run/watch-steps.js';

function pool(id: string, proof: PoolSummary['proof']): PoolSummary {
  return {
    poolId: id,
    symbol: null,
    contractId: null,
    proof,
    assurance: computePoolAssurance(proof, 'not-run'),
    ledger: 'not-run',
    reserveA: '1000.5',
    reserveB: '20',
    totalLpSupply: '10',
    lpShareValue: '14.1598',
    price: null,
    tvlCc: null,
    checks: { pass: 1, fail: 0, couldNotCheck: 0, skipped: 0 },
    codes: [],
  };
}

function report(outcome: AuditReport['outcome'], pools: PoolSummary[], codes: string[] = []): AuditReport {
  return {
    outcome,
    findings: codes.map((c) => makeFinding(c as 'PROOF_FIELD_MISMATCH', 'p-1', 'x', {})),
    checks: [],
    pools,
    summary: { exitCode: outcome === 'passed' ? 0 : 1, durationMs: 1200, mirror: { snapshotId: 3 } },
  } as unknown as AuditReport;
}

const value = async (
  r: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> => {
  const m = (await r.getMetricsAsJSON()).find((x) => x.name === name);
  const v = (m?.values ?? []).find((x) => Object.entries(labels).every(([k, l]) => x.labels[k] === l));
  return v?.value;
};

describe('watch metrics', () => {
  it('every name starts with reserve_audit_; the verdict is 2 until the first audit', async () => {
    const r = new Registry();
    createWatchMetrics(r);
    for (const m of await r.getMetricsAsJSON()) expect(m.name).toMatch(/^reserve_audit_/);
    expect(await value(r, 'reserve_audit_audit_verdict')).toBe(2);
  });

  it('the last audit only: verdict, findings by code and severity, pools by level, bounded per-pool series', async () => {
    const r = new Registry();
    const m = createWatchMetrics(r, { maxPools: 2 });
    const at = Date.UTC(2026, 10, 26, 12);
    const pools = [pool('p-3', 'proven'), pool('p-1', 'proven'), pool('p-2', 'unverifiable')];
    m.observeAudit({
      report: report('failed', pools, ['PROOF_FIELD_MISMATCH', 'PROOF_FIELD_MISMATCH']),
      latest: [{ poolId: 'p-1', ledgerCreatedAtMs: at - 90_000 } as never],
      atMs: at,
    });
    expect(await value(r, 'reserve_audit_audit_verdict')).toBe(1);
    expect(
      await value(r, 'reserve_audit_findings', { code: 'PROOF_FIELD_MISMATCH', severity: 'error' }),
    ).toBe(2);
    expect(await value(r, 'reserve_audit_pools', { level: 'id-verified' })).toBe(2);
    expect(await value(r, 'reserve_audit_pools', { level: 'unverifiable' })).toBe(1);
    // the first two pools by ID get series; p-3 is counted
    expect(await value(r, 'reserve_audit_pool_reserve', { pool: 'p-1', side: 'a' })).toBe(1000.5);
    expect(await value(r, 'reserve_audit_pool_reserve', { pool: 'p-3', side: 'a' })).toBeUndefined();
    expect(await value(r, 'reserve_audit_pools_unlabelled')).toBe(1);
    expect(await value(r, 'reserve_audit_pool_proof_age_seconds', { pool: 'p-1' })).toBe(90);
    expect(await value(r, 'reserve_audit_pool_last_proven_timestamp_seconds', { pool: 'p-1' })).toBe(
      at / 1000,
    );
    expect(
      await value(r, 'reserve_audit_pool_last_proven_timestamp_seconds', { pool: 'p-2' }),
    ).toBeUndefined();

    // the next audit passes: its findings replace the last one's
    m.observeAudit({ report: report('passed', pools), latest: [], atMs: at + 20_000 });
    expect(await value(r, 'reserve_audit_audit_verdict')).toBe(0);
    expect(await value(r, 'reserve_audit_findings', { code: 'PROOF_FIELD_MISMATCH' })).toBeUndefined();
    // last proven moves on
    expect(await value(r, 'reserve_audit_pool_last_proven_timestamp_seconds', { pool: 'p-1' })).toBe(
      at / 1000 + 20,
    );
  });

  it('requests, retries, throttles and failures by endpoint; at most 40 endpoint labels, then other', async () => {
    const r = new Registry();
    const m = createWatchMetrics(r);
    m.observeAttempt({ endpoint: '/pools/proof', retry: false, status: 429 });
    m.observeAttempt({ endpoint: '/pools/proof', retry: true, status: 200 });
    m.observeAttempt({ endpoint: '/stats', retry: false, status: null });
    expect(await value(r, 'reserve_audit_http_requests_total', { endpoint: '/pools/proof' })).toBe(2);
    expect(await value(r, 'reserve_audit_http_retries_total', { endpoint: '/pools/proof' })).toBe(1);
    expect(await value(r, 'reserve_audit_http_throttled_total', { endpoint: '/pools/proof' })).toBe(1);
    expect(await value(r, 'reserve_audit_http_failed_total', { endpoint: '/stats' })).toBe(1);
    for (let i = 0; i < 100; i++) m.observeAttempt({ endpoint: `/x/${i}`, retry: false, status: 200 });
    const labels = new Set(
      (await r.getMetricsAsJSON())
        .find((x) => x.name === 'reserve_audit_http_requests_total')
        ?.values.map((v) => v.labels.endpoint),
    );
    expect(labels.size).toBe(41);
    expect(labels.has('other')).toBe(true);
  });

  it('an endpoint label is the path below the shown base URL, without query', () => {
    const base = 'http://127.0.0.1:8080/v1/public';
    expect(computeEndpointLabel(base, `${base}/pools/proof`)).toBe('/pools/proof');
    expect(computeEndpointLabel(`${base}/`, `${base}/aggregator/orderbook?ticker_id=A_B&depth=100`)).toBe(
      '/aggregator/orderbook',
    );
    expect(computeEndpointLabel(base, 'http://elsewhere.test/x')).toBe('other');
  });
});
