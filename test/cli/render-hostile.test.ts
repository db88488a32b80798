/**
 * The renderers against a hostile report (issue 30): they are linear in findings and checks (a
 * structural count, not a timing: every read of a finding's `pool` is counted, and a renderer that
 * filters every finding for every check reads it findings × checks times); the text report prints
 * every finding, also those of entries that are not pools of the report (malformed entries); JUnit
 * lists each finding under the one check that raised it; control and bidirectional-control
 * characters from the exchange never reach text, JUnit or HTML raw.
 */
import { describe, expect, it } from 'vitest';
import { formatAuditText, formatCouldNotCheckReasons } from '../../src/cli/render/audit-text.js';
import { formatHtmlReport } from '../../src/cli/render/html-report.js';
import { formatJunit } from '../../src/cli/render/junit.js';
import { buildReportModelFromAudit } from '../../src/cli/render/report-model.js';
import { createStyle } from '../../src/cli/render/style.js';
import { AuditCollector, type Finding, makeFinding } from '../../src/core/audit/index.js';
import type { AuditReport } from '../../src/run/audit.js';

const plain = createStyle(process.stdout, { NO_COLOR: '1' });

function report(
  c: AuditCollector,
  pools: AuditReport['pools'] = [],
  outcome: AuditReport['outcome'] = 'failed',
): AuditReport {
  const coverage = {
    quotes: { checked: false, probes: 0, text: 'quotes: not probed' },
    history: { checked: false, mirror: false, earlierSnapshots: 0, text: 'history: no mirror' },
    types: { source: 'bundled', typeFiles: 0, dars: 0, text: 'types: bundled' },
  } as const;
  return {
    outcome,
    findings: c.findings,
    checks: c.checks,
    pools,
    assurance: 'asserted',
    summary: {
      outcome,
      exitCode: outcome === 'failed' ? 1 : 2,
      baseUrl: 'http://127.0.0.1:1/v1/public',
      fetchedAt: '2026-11-22T03:00:00.000000+00:00',
      profile: 'bundled',
      pools: pools.length,
      proofsProven: 0,
      proofsIdVerified: 0,
      assurance: {
        level: 'asserted',
        pools: { 'ledger-confirmed': 0, 'id-verified': 0, asserted: pools.length, unverifiable: 0 },
        ledger: null,
      },
      checks: { pass: 0, fail: c.checks.length, couldNotCheck: 0, skipped: 0 },
      findings: { error: c.findings.length, warning: 0, info: 0 },
      coverage,
      mirror: null,
      durationMs: 1,
    },
  };
}

/** `n` malformed proof entries with a pool id and `n` without (pool null), each its own check. */
function malformed(n: number): { c: AuditCollector; reads: { pool: number } } {
  const reads = { pool: 0 };
  const counted = (f: Finding): Finding => {
    const { pool, ...rest } = f;
    return Object.defineProperty({ ...rest }, 'pool', {
      enumerable: true,
      get() {
        reads.pool++;
        return pool;
      },
    }) as Finding;
  };
  const c = new AuditCollector();
  for (let i = 0; i < n; i++) {
    c.record('proof', 'proof.entry', `bad${i}`, [
      counted(makeFinding('PROOF_ENTRY_MALFORMED', `bad${i}`, `/pools/proof pool bad${i} is malformed: x`)),
    ]);
    c.record('proof', 'proof.entry', null, [
      counted(makeFinding('PROOF_ENTRY_MALFORMED', null, `/pools/proof entry ${i} is malformed: y`)),
    ]);
  }
  return { c, reads };
}

const ASSETS = { script: '', css: '' };

describe('renderers are linear in findings and checks', () => {
  it('reads each finding a bounded number of times, whatever the count (JUnit, text, HTML)', () => {
    const perFinding: number[] = [];
    for (const n of [200, 2_000]) {
      const { c, reads } = malformed(n);
      const r = report(c);
      formatJunit(r.checks, r.findings);
      formatAuditText(r, plain, true);
      formatHtmlReport(buildReportModelFromAudit(r, new Map(), '2026-11-22T03:00:00Z'), ASSETS);
      perFinding.push(reads.pool / r.findings.length);
    }
    // a quadratic renderer reads `pool` once per finding per check: 400 then 4,000 times per finding
    expect(perFinding[0]).toBeLessThan(20);
    expect(perFinding[1]).toBeLessThan(20);
    expect(Math.abs(perFinding[1]! - perFinding[0]!)).toBeLessThan(1);
  });

  it('JUnit lists each finding once, under the check that raised it', () => {
    const { c } = malformed(50);
    const xml = formatJunit(c.checks, c.findings);
    for (let i = 0; i < 50; i++) {
      expect(xml.split(`entry ${i} is malformed`).length - 1).toBe(1);
      expect(xml.split(`pool bad${i} is malformed`).length - 1).toBe(1);
    }
  });

  it('the text report prints every error finding, pools of the report or not', () => {
    const { c } = malformed(30);
    for (const verbose of [false, true]) {
      const text = formatAuditText(report(c), plain, verbose);
      for (let i = 0; i < 30; i++) {
        expect(text).toContain(`/pools/proof pool bad${i} is malformed`);
        expect(text).toContain(`/pools/proof entry ${i} is malformed`);
      }
    }
  });
});

describe('exchange text with control characters', () => {
  const HOSTILE = 'CC\u001b]0;pwned\u0007\u001b[2J\u0000\u009b\u202eevil\u2066';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters the outputs must not hold
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const c = new AuditCollector();
  c.record('state', 'state.fields', HOSTILE, [
    makeFinding('STATE_FIELD_MISMATCH', HOSTILE, `symbol ${HOSTILE} differs`, { got: HOSTILE }),
  ]);
  c.couldNotCheck('market', 'market.ticker', null, makeFinding('FETCH_FAILED', null, `ticker ${HOSTILE}`));
  const pools: AuditReport['pools'] = [
    {
      poolId: HOSTILE,
      symbol: HOSTILE,
      proof: 'proven',
      assurance: 'id-verified',
      ledger: 'not-run',
      contractId: HOSTILE,
      reserveA: '1',
      reserveB: '2',
      totalLpSupply: '1',
      lpShareValue: '1',
      price: '2',
      tvlCc: '2',
    } as AuditReport['pools'][number],
  ];

  it('are escaped in the text report, the stderr reasons, JUnit and HTML', () => {
    const r = report(c, pools);
    const text = formatAuditText(r, plain, true);
    expect(text).not.toMatch(RAW);
    expect(text).toContain('CC\\u001b]0;pwned\\u0007\\u001b[2J\\u0000\\u009b\\u202eevil\\u2066');
    const reasons = formatCouldNotCheckReasons(report(c, pools, 'could-not-check'));
    expect(reasons).toContain('\\u001b');
    expect(reasons).not.toMatch(RAW);
    const xml = formatJunit(r.checks, r.findings);
    expect(xml).not.toMatch(RAW);
    expect(xml).toContain('\\u202e');
    const html = formatHtmlReport(buildReportModelFromAudit(r, new Map(), '2026-11-22T03:00:00Z'), ASSETS);
    // the chart data island is JSON (faithful, escaped by JSON); the page's text is not
    const page = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    expect(page).not.toMatch(RAW);
    expect(page).toContain('\\u202e');
  });
});
