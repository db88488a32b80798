/**
 * Renderers and the finding catalogue: JUnit XML is well-formed even with hostile text; the
 * binary64 orderbook recomputation agrees with the server's exact one; docs/findings.md lists
 * every code; the time helpers round-trip.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildPoolChartData, escapeHtml } from '../../src/cli/render/html-report.js';
import { formatJunit } from '../../src/cli/render/junit.js';
import { computeLastChange } from '../../src/cli/render/report-model.js';
import { computeOrderbookLevels } from '../../src/core/amm/index.js';
import { ALL_FINDING_CODES } from '../../src/core/audit/finding-codes.js';
import { AuditCollector, computeOrderbookLevelsFast, makeFinding } from '../../src/core/audit/index.js';
import { formatApiTimestampMicros, parseTimestampMicros } from '../../src/core/wire/timestamp.js';
import { assertWellFormedXml } from './xml.js';

describe('JUnit', () => {
  it('is well-formed with one testsuite per area and escapes hostile text', () => {
    const c = new AuditCollector();
    c.record('proof', 'proof.contract-id', 'p<1>&"', [
      makeFinding('PROOF_CONTRACT_ID_MISMATCH', 'p<1>&"', 'bad </testcase> & \u0001 "x"', {}),
    ]);
    c.record('state', 'state.price', 'p2', []);
    c.skip('history', 'history', null, 'no --mirror given');
    c.couldNotCheck(
      'market',
      'market.ticker',
      null,
      makeFinding('FETCH_FAILED', null, '/aggregator/tickers: <html>', {}),
    );
    const xml = formatJunit(c.checks, c.findings);
    assertWellFormedXml(xml);
    expect(xml.match(/<testsuite /g)?.length).toBe(4);
    expect(xml).toContain('<failure message="PROOF_CONTRACT_ID_MISMATCH">');
    expect(xml).toContain('<skipped message="no --mirror given"/>');
    expect(xml).toContain('<error message="could not check">');
    expect(() => assertWellFormedXml('<a><b></a></b>')).toThrow();
  });
});

describe('orderbook recomputation', () => {
  it('binary64 levels agree with the exact 80-digit levels to 1e-12', () => {
    for (const [ra, rb, depth] of [
      ['1611422.1285580688', '244936.1635408265', 100],
      ['200.0000000000', '800.0000000000', 2],
      ['0.0000001000', '5000000.0000000000', 200],
    ] as const) {
      const exact = computeOrderbookLevels({ reserveA: ra, reserveB: rb }, depth);
      const mid = (Number(rb) / Number(ra)).toString();
      const fast = computeOrderbookLevelsFast(
        ra,
        exact.asks.length > 0 ? String(Number(rb) / Number(ra)) : mid,
        depth,
      );
      for (const side of ['bids', 'asks'] as const)
        exact[side].forEach(([p, a], i) => {
          const [fp, fa] = fast[side][i]!;
          expect(Math.abs(fp - p.toNumber()) / p.toNumber()).toBeLessThan(1e-12);
          expect(Math.abs(fa - a.toNumber()) / a.toNumber()).toBeLessThan(1e-9);
        });
    }
  });
});

describe('catalogue', () => {
  it('docs/findings.md documents every finding code', () => {
    const doc = readFileSync(new URL('../../docs/findings.md', import.meta.url), 'utf8');
    for (const code of ALL_FINDING_CODES) expect(doc, code).toContain(`\`${code}\``);
  });
});

describe('time and html helpers', () => {
  it('ISO ↔ micros', () => {
    expect(parseTimestampMicros('2026-11-22T03:00:00.123456+00:00')).toBe(1795316400123456n);
    expect(parseTimestampMicros('2026-11-22T05:00:00.123456+02:00')).toBe(1795316400123456n);
    expect(parseTimestampMicros('2026-11-22 03:00:00')).toBeNull();
    expect(formatApiTimestampMicros(1795316400123456n)).toBe('2026-11-22T03:00:00.123456+00:00');
  });
  it('escapes HTML and turns a pool history into chart data with the swaps marked', () => {
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    const row = (time: string, contractId: string, reserveA: string | null) => ({
      time,
      contractId,
      reserveA,
      reserveB: '2',
      price: '0.5',
      tvlCc: '10',
      totalLpSupply: '1',
      lpShareValue: '1.4142135623730950488',
      verification: 'verified',
      symbol: 'A/B',
    });
    const rows = [
      row('2026-11-22T03:00:00.000Z', 'c1', '1'),
      row('2026-11-22T03:01:00.000Z', 'c1', '1'),
      row('2026-11-22T03:02:00.000Z', 'c2', 'x'),
    ];
    const d = buildPoolChartData(rows);
    expect(d.t).toEqual([1795316400, 120]); // first time, then deltas; row 2 repeats row 1
    expect(d.a).toEqual([1, null]);
    expect(d.lp[0]).toBe(Number(Math.SQRT2.toPrecision(7))); // 7 significant digits, for plotting only
    expect(d.swaps).toEqual([1]);
    expect(computeLastChange(rows)).toBe('2026-11-22T03:02:00.000Z');
    expect(computeLastChange(rows.slice(0, 2))).toBe('2026-11-22T03:00:00.000Z');
    expect(computeLastChange([])).toBeNull();
    // repeated observations are left out (steps lose nothing), except the last one
    const flat = [
      rows[0]!,
      { ...rows[0]!, time: '2026-11-22T03:05:00.000Z' },
      { ...rows[0]!, time: '2026-11-22T03:09:00.000Z' },
    ];
    expect(buildPoolChartData(flat).t).toEqual([1795316400, 540]);
  });
});
