/**
 * Every link of the report page's navigation lands somewhere (issue 29, smaller frictions: a
 * passing report's "Checks" link went nowhere): a passing audit with a mirror and probe quotes
 * writes a page where each `href="#…"` of the nav has its `id`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'report-anchors' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

describe('the report page of a passing audit', () => {
  it('has a target for every navigation link, the Checks section saying every check passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-anchors-'));
    const mirror = join(dir, 'mirror.db');
    const html = join(dir, 'report.html');
    expect((await runCliForTest(['audit', '--base-url', s.base, '--mirror', mirror])).code).toBe(0);
    const r = await runCliForTest([
      'audit',
      '--base-url',
      s.base,
      '--mirror',
      mirror,
      '--probe-quotes',
      '--html',
      html,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    const nav = /<nav>(.*?)<\/nav>/s.exec(page)?.[1] ?? '';
    const targets = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets).toContain('checks');
    for (const t of targets) expect(page, `#${t}`).toContain(`id="${t}"`);
    expect(page).toMatch(
      /<section id="checks"><h2>Checks<\/h2><p>Every one of the \d+ checks passed\.<\/p><\/section>|<section id="checks"><h2>Checks that did not pass<\/h2>/,
    );
  }, 60_000);
});
