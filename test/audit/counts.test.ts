import { describe, expect, it } from 'vitest';
import {
  type CheckOutcome,
  computeCheckCounts,
  computeFindingCounts,
  computeLabelCounts,
  makeFinding,
} from '../../src/core/audit/index.js';

const check = (status: CheckOutcome['status']): CheckOutcome => ({
  name: 'x',
  area: 'market',
  pool: null,
  status,
  codes: [],
  note: null,
});

describe('audit counts (one definition for the JSON summary, the text line and the HTML report)', () => {
  it('counts checks by status', () => {
    const checks = ['pass', 'pass', 'fail', 'could-not-check', 'skipped', 'skipped', 'skipped'] as const;
    expect(computeCheckCounts(checks.map(check))).toEqual({ pass: 2, fail: 1, couldNotCheck: 1, skipped: 3 });
  });

  it('counts findings by severity, all or one pool', () => {
    const findings = [
      makeFinding('TICKER_MISMATCH', 'p1', 'a'),
      makeFinding('TICKER_MISMATCH', 'p2', 'b'),
      makeFinding('QUOTE_UNAVAILABLE', 'p1', 'c'),
      makeFinding('TICKER_MISMATCH', 'p1', 'd', {}, { severity: 'info' }),
    ];
    const all = computeFindingCounts(findings);
    expect(all.error + all.warning + all.info).toBe(4);
    expect(all.info).toBe(1);
    const p1 = computeFindingCounts(findings, 'p1');
    expect(p1.error + p1.warning + p1.info).toBe(3);
    expect(computeFindingCounts(findings, 'p3')).toEqual({ error: 0, warning: 0, info: 0 });
  });

  it('labels count errors and warnings only, never info', () => {
    const findings = [
      makeFinding('TICKER_MISMATCH', 'p1', 'a', {}, { label: 'proven' }),
      makeFinding('TICKER_MISMATCH', 'p1', 'b', {}, { label: 'asserted' }),
      makeFinding('TICKER_MISMATCH', 'p1', 'c', {}, { label: 'could-not-check', severity: 'warning' }),
      makeFinding('TICKER_MISMATCH', 'p1', 'd', {}, { label: 'proven', severity: 'info' }),
    ];
    expect(computeLabelCounts(findings)).toEqual({ proven: 1, asserted: 1, couldNotCheck: 1 });
  });
});
