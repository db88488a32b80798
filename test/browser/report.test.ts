/**
 * The HTML report in a real browser (issue 13): the report of a failed audit (a TAMPER scenario:
 * a reserve changed inside pool 0's blob, after honest audits and swaps recorded history) shows
 * the verdict and the errors first, its numbers equal the JSON report's, the pool table sorts and
 * filters, the charts are drawn by uPlot, any URL fragment (a malformed percent-escape included)
 * leaves the page working, and there is no console error and no request leaving the page. A 1,000-pool page stays under 2 MB. Screenshots go to test-results/.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHtmlReport } from '../../src/cli/render/html-report.js';
import { loadReportAssets } from '../../src/cli/render/report-assets.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';
import { computeBigReportModel } from './big-report.js';
import { CHROMIUM, CHROMIUM_SKIP_REASON, launchBrowser, openFile, screenshot } from './browser.js';

type JsonReport = {
  summary: {
    outcome: string;
    pools: number;
    proofsProven: number;
    checks: { pass: number; fail: number; couldNotCheck: number; skipped: number };
    findings: { error: number; warning: number; info: number };
  };
  pools: {
    poolId: string;
    reserveA: string | null;
    reserveB: string | null;
    proof: string;
    assurance: string;
  }[];
  findings: { code: string; severity: string }[];
};

const tamperBlob: Tamper = (ctx) => {
  if (ctx.path !== '/pools/proof') return undefined;
  const b = ctx.json as {
    data: { pools: { reserve_contract: { created_event_blob: string; reserve_a: string } }[] };
  };
  const rc = b.data.pools[0]!.reserve_contract;
  const bytes = Buffer.from(rc.created_event_blob, 'base64');
  const at = bytes.indexOf(Buffer.from(rc.reserve_a));
  const first = bytes[at] ?? 0x31;
  bytes[at] = first === 0x39 ? 0x38 : first + 1;
  rc.created_event_blob = bytes.toString('base64');
  return { json: b };
};

describe.skipIf(CHROMIUM === null)(
  `HTML report in chromium${CHROMIUM === null ? ` (${CHROMIUM_SKIP_REASON})` : ''}`,
  () => {
    let s: AuditServer;
    let browser: Browser;
    let dir: string;
    let html: string;
    let json: JsonReport;
    let swapped = '';
    beforeAll(async () => {
      s = await startAuditServer({ version: 'v12', seed: 'report-page' });
      dir = mkdtempSync(join(tmpdir(), 'report-page-'));
      const mirror = join(dir, 'mirror.sqlite');
      // honest history: three audits with a swap before each of the last two
      for (let i = 0; i < 3; i++) {
        if (i > 0) {
          s.clock.advanceMs(120_000);
          const cc = s.ex.cc();
          const pool = s.ex.pools().find((p) => p.tokenA.id === cc.id || p.tokenB.id === cc.id)!;
          swapped = pool.poolId;
          const other = pool.tokenA.id === cc.id ? pool.tokenB : pool.tokenA;
          const res = s.ex.transfer({
            sender: 'alice::1220aa',
            instrument: { admin: cc.admin, id: cc.id },
            amount: `${100 * i}`,
            memo: other.id,
          });
          expect(res.status).toBe('executed');
          s.clock.advanceMs(120_000);
        }
        expect((await runCliForTest(['audit', '--base-url', s.base, '--mirror', mirror])).code).toBe(0);
      }
      s.setTamper(tamperBlob);
      html = join(dir, 'report.html');
      const r = await runCliForTest([
        'audit',
        '--base-url',
        s.base,
        '--mirror',
        mirror,
        '--json',
        '--html',
        html,
      ]);
      s.setTamper(undefined);
      expect(r.code).toBe(1);
      json = JSON.parse(r.stdout) as JsonReport;
      expect(json.findings.map((f) => f.code)).toContain('PROOF_CONTRACT_ID_MISMATCH');
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    it('shows the verdict and the errors first, with the JSON report numbers', async () => {
      const o = await openFile(browser, html);
      await o.page.waitForSelector('body[data-ready="true"]');
      const v = o.page.locator('#verdict');
      expect(await v.getAttribute('data-outcome')).toBe('failed');
      const sum = json.summary;
      const attrs: [string, number][] = [
        ['data-pools', sum.pools],
        ['data-proofs-proven', sum.proofsProven],
        ['data-errors', sum.findings.error],
        ['data-warnings', sum.findings.warning],
        ['data-info', sum.findings.info],
        ['data-checks-pass', sum.checks.pass],
        ['data-checks-fail', sum.checks.fail],
        ['data-checks-could-not-check', sum.checks.couldNotCheck],
        ['data-checks-skipped', sum.checks.skipped],
      ];
      for (const [a, n] of attrs) expect(await v.getAttribute(a), a).toBe(String(n));
      expect(await v.textContent()).toContain('FAILED');
      // errors come first: the first findings block is the errors, open, one row per error finding
      const blocks = await o.page.locator('details.findings').evaluateAll((els) => els.map((e) => e.id));
      expect(blocks[0]).toBe('findings-error');
      expect(await o.page.locator('#findings-error tbody tr').count()).toBe(sum.findings.error);
      expect(await o.page.locator('#findings-error').getAttribute('open')).not.toBeNull();
      // …and above the pool table
      const y = async (sel: string): Promise<number> => (await o.page.locator(sel).boundingBox())!.y;
      expect(await y('#verdict')).toBeLessThan(await y('#findings-error'));
      expect(await y('#findings-error')).toBeLessThan(await y('#pool-table'));
      // the pool table: one row per pool, reserves and proof status as in the JSON
      expect(await o.page.locator('#pool-table tbody tr').count()).toBe(json.pools.length);
      for (const p of json.pools) {
        const row = o.page.locator(`#pool-table tbody tr[data-pool="${p.poolId}"]`);
        const cells = await row.locator('td').allTextContents();
        expect(cells[1]).toBe(p.reserveA ?? '—');
        expect(cells[2]).toBe(p.reserveB ?? '—');
        // the assurance level reached (the former proof status is pools[].proof in the JSON)
        expect(cells[6]).toBe(p.assurance);
      }
      await screenshot(o.page, 'report-failed');
      expect(o.errors).toEqual([]);
      expect(o.outbound).toEqual([]);
    }, 60_000);

    it('sorts and filters the pool table', async () => {
      const o = await openFile(browser, html);
      await o.page.waitForSelector('body[data-ready="true"]');
      const tvls = async (): Promise<number[]> =>
        (await o.page.locator('#pool-table tbody tr:not([hidden]) td:nth-child(4)').allTextContents()).map(
          Number,
        );
      await o.page.click('#pool-table th:nth-child(4)');
      const up = await tvls();
      expect(up).toEqual([...up].sort((a, b) => a - b));
      await o.page.click('#pool-table th:nth-child(4)');
      const down = await tvls();
      expect(down).toEqual([...up].reverse());
      await o.page.check('#pool-problems');
      const shown = await o.page.locator('#pool-table tbody tr:not([hidden])').count();
      const withProblems = new Set(
        json.findings.filter((f) => f.severity !== 'info').map((f) => (f as { pool?: string }).pool),
      );
      expect(shown).toBe(json.pools.filter((p) => withProblems.has(p.poolId)).length);
      await o.page.uncheck('#pool-problems');
      const id = json.pools[1]!.poolId;
      await o.page.fill('#pool-filter', id);
      expect(await o.page.locator('#pool-table tbody tr:not([hidden])').count()).toBeGreaterThanOrEqual(1);
      expect(await o.page.locator(`#pool-table tbody tr[data-pool="${id}"]`).isVisible()).toBe(true);
      expect(o.errors).toEqual([]);
    }, 60_000);

    it('draws the charts with uPlot: full width, ticks on the axes, swaps marked', async () => {
      const o = await openFile(browser, html);
      await o.page.waitForSelector('body[data-ready="true"]');
      const first = swapped;
      await o.page.locator(`#pool-${first}`).scrollIntoViewIfNeeded();
      await o.page.waitForSelector(`#pool-${first} .uplot canvas`);
      expect(await o.page.locator(`#pool-${first} .uplot`).count()).toBe(3);
      const width = (await o.page.locator(`#pool-${first} .uplot`).first().boundingBox())!.width;
      const box = (await o.page.locator(`#pool-${first}`).boundingBox())!.width;
      expect(width).toBeGreaterThan(box * 0.9);
      expect(await o.page.locator(`#pool-${first} .u-title`).first().textContent()).toMatch(
        /^Reserves — 2 contract changes/,
      );
      await o.page.hover(`#pool-${first} .uplot .u-over >> nth=0`);
      expect(await o.page.locator(`#pool-${first} .u-legend .u-value`).first().textContent()).toMatch(/\d/);
      await screenshot(o.page, 'report-charts');
      expect(o.errors).toEqual([]);
    }, 60_000);

    it('survives any fragment: a malformed escape, an unknown pool, and still opens #pool-<id>', async () => {
      for (const hash of ['#%E0%A4%A', '#pool-%E0%A4%A', '#pool-%', '#pool-no-such-pool']) {
        const o = await openFile(browser, html, hash);
        await o.page.waitForSelector('body[data-ready="true"]');
        expect(o.errors, hash).toEqual([]);
      }
      const o = await openFile(browser, html, `#pool-${encodeURIComponent(swapped)}`);
      await o.page.waitForSelector(`#pool-${swapped} .uplot canvas`);
      expect(o.errors).toEqual([]);
    }, 60_000);
  },
);

describe('a 1,000-pool report', () => {
  it('stays under 2 MB (charts are drawn on demand from compact data)', async () => {
    const model = computeBigReportModel(1000, 20);
    const page = formatHtmlReport(model, await loadReportAssets());
    expect(Buffer.byteLength(page)).toBeLessThan(2 * 1024 * 1024);
    expect(page).toContain('data-lazy="true"'); // many pools: a pool's charts are built when picked
    expect(page).not.toContain('class="pool-charts"');
  });
});
