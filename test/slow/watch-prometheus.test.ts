/**
 * A real Prometheus scrapes a running `watch` (spawned from dist/) against the reference server with
 * traffic: a temporary config (scrape interval 1 s, the shipped rules of deploy/prometheus/alerts.yml)
 * and temporary storage, on a free port. The test asks Prometheus's HTTP query API (/api/v1/query)
 * for the scraped series: the target is up, the verdict is 0, pools are proven, per-pool reserves,
 * request counters by endpoint and the duration histograms have samples; the rules are loaded and
 * none fires. Skips without the Debian `prometheus` package (fails under CI=true).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/serve.js';
import { findClosedPort, type SpawnedCli, spawnCli, waitFor } from '../cli/helpers/spawn-cli.js';
import { repoRoot } from '../helpers/shared.js';
import { findMetricsUrl, parseJsonLog } from '../watch/helpers.js';
import { PROMETHEUS } from '../watch/prometheus-bin.js';

interface QueryResult {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

describe.skipIf(PROMETHEUS === null)('Prometheus scrapes watch', () => {
  let server: RunningServer;
  let watch: SpawnedCli;
  let prom: ChildProcess;
  let promUrl: string;
  let promLog = '';
  const dir = mkdtempSync(join(tmpdir(), 'watch-prometheus-'));

  const query = async (q: string): Promise<QueryResult[]> => {
    const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
    const body = (await r.json()) as { status: string; data: { result: QueryResult[] } };
    expect(body.status).toBe('success');
    return body.data.result;
  };
  /** polls `q` until `ok` holds for its result */
  const until = async (q: string, ok: (r: QueryResult[]) => boolean, ms = 30_000): Promise<QueryResult[]> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await query(q).catch(() => []);
      if (ok(r)) return r;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${q}: ${JSON.stringify(r)}\n${promLog}`);
      await new Promise((res) => setTimeout(res, 250));
    }
  };

  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: ':memory:',
      contractIdVersion: 'v12',
      seed: 'watch-prometheus',
      trafficPerMinute: 600,
      simulation: false,
      logger: { info() {}, error() {} },
    });
    watch = spawnCli([
      'watch',
      '--base-url',
      `${server.url}/v1/public`,
      '--mirror',
      join(dir, 'm.db'),
      '--every',
      '1s',
      '--audit-every',
      '3s',
      '--metrics-port',
      '0',
      '--log-format',
      'json',
      '--max-rps',
      '1000',
    ]);
    await waitFor(() => findMetricsUrl(watch.output.stdout) !== null, 20_000, 'the metrics port');
    const target = new URL(findMetricsUrl(watch.output.stdout)!).host;
    copyFileSync(join(repoRoot, 'deploy', 'prometheus', 'alerts.yml'), join(dir, 'alerts.yml'));
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files: [alerts.yml]',
        'scrape_configs:',
        '  - job_name: reserve-audit',
        `    static_configs: [{ targets: ["${target}"] }]`,
        '',
      ].join('\n'),
    );
    const port = await findClosedPort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(
      PROMETHEUS!,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prom.stderr?.on('data', (d: Buffer) => (promLog += d.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = await fetch(`${promUrl}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`prometheus did not become ready:\n${promLog}`);
      await new Promise((res) => setTimeout(res, 200));
    }
  }, 60_000);

  afterAll(async () => {
    prom?.kill('SIGTERM');
    watch?.child.kill('SIGTERM');
    if (watch !== undefined) expect(await watch.exited).toEqual({ code: 0, signal: null });
    await server?.close();
  });

  it('answers the scraped series through /api/v1/query', async () => {
    await until('up{job="reserve-audit"}', (r) => r[0]?.value[1] === '1');
    // an audit has passed and been scraped
    const verdict = await until(
      'reserve_audit_audit_verdict{job="reserve-audit"}',
      (r) => r[0]?.value[1] === '0' && parseJsonLog(watch.output.stdout).some((e) => e.event === 'audit'),
    );
    expect(verdict).toHaveLength(1);
    const proven = await until('reserve_audit_pools{level="id-verified"}', (r) => Number(r[0]?.value[1]) > 0);
    const pools = Number(proven[0]!.value[1]);
    // per pool: both reserves of every pool (fewer than --metrics-max-pools), an LP-share value, a proof age
    const reserves = await until('count(reserve_audit_pool_reserve)', (r) => r.length === 1);
    expect(Number(reserves[0]!.value[1])).toBe(2 * pools);
    expect(Number((await query('count(reserve_audit_pool_lp_share_value)'))[0]?.value[1])).toBe(pools);
    const ages = await query('reserve_audit_pool_proof_age_seconds');
    expect(ages.length).toBe(pools);
    for (const a of ages) expect(Number(a.value[1])).toBeGreaterThanOrEqual(0);
    // requests by endpoint, and the histograms have samples (snapshots every second, audits every 3)
    const byEndpoint = await query('reserve_audit_http_requests_total{endpoint="/pools/proof"}');
    expect(Number(byEndpoint[0]?.value[1])).toBeGreaterThan(0);
    await until(
      'reserve_audit_snapshot_duration_seconds_count{result="ok"}',
      (r) => Number(r[0]?.value[1]) >= 2,
    );
    await until('sum(reserve_audit_audit_duration_seconds_count)', (r) => Number(r[0]?.value[1]) >= 2);
    // the snapshots advance in Prometheus' own storage (the gauge is scraped over time)
    await until(
      'changes(reserve_audit_last_snapshot_timestamp_seconds[30s])',
      (r) => Number(r[0]?.value[1]) >= 2,
    );
    expect(Number((await query('reserve_audit_mirror_bytes'))[0]?.value[1])).toBeGreaterThan(0);
    expect(Number((await query('reserve_audit_process_resident_memory_bytes'))[0]?.value[1])).toBeGreaterThan(
      0,
    );
    // the shipped rules are loaded and an honest exchange fires none of them
    const rules = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as {
      data: { groups: { name: string; rules: { name: string; health: string }[] }[] };
    };
    const group = rules.data.groups.find((g) => g.name === 'reserve-audit');
    expect(group?.rules.map((r) => r.name)).toContain('ReserveAuditFailed');
    for (const r of group?.rules ?? []) expect(r.health, r.name).toBe('ok');
    expect(await query('ALERTS{alertstate="firing"}')).toEqual([]);
  }, 120_000);
});
