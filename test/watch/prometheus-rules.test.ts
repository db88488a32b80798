/**
 * The shipped Prometheus rules (deploy/prometheus/alerts.yml) with the real promtool: they parse
 * (`promtool check rules`) and fire as their unit tests say (`promtool test rules
 * deploy/prometheus/alerts.test.yml`); every metric they name is one the watch exports.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createWatchMetrics } from '../../src/run/watch-metrics.js';
import { repoRoot } from '../helpers/shared.js';
import { PROMTOOL } from './prometheus-bin.js';

const dir = join(repoRoot, 'deploy', 'prometheus');

describe.skipIf(PROMTOOL === null)('deploy/prometheus/alerts.yml', () => {
  it('promtool check rules', () => {
    const out = execFileSync(PROMTOOL!, ['check', 'rules', 'alerts.yml'], { cwd: dir, encoding: 'utf8' });
    expect(out).toMatch(/SUCCESS: 6 rules found/);
  });

  it('promtool test rules alerts.test.yml', () => {
    const out = execFileSync(PROMTOOL!, ['test', 'rules', 'alerts.test.yml'], { cwd: dir, encoding: 'utf8' });
    expect(out).toMatch(/SUCCESS/);
  });
});

describe('the rules and the dashboard name only metrics the watch exports', () => {
  it('every reserve_audit_* name in alerts.yml and the Grafana dashboard is registered', async () => {
    const registry = new Registry();
    createWatchMetrics(registry);
    const names = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    for (const file of [join(dir, 'alerts.yml'), join(repoRoot, 'deploy', 'grafana', 'reserve-audit.json')]) {
      const used = new Set(readFileSync(file, 'utf8').match(/reserve_audit_[a-z_]+/g) ?? []);
      expect(used.size).toBeGreaterThan(3);
      // a histogram's series carry suffixes
      for (const n of used)
        expect(names.has(n.replace(/_(bucket|sum|count)$/, '')), `${file}: ${n}`).toBe(true);
    }
  });
});
