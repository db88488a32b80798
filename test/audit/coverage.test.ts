/** What an audit run covered (src/core/audit/coverage.ts): the lines that keep a pass from being read as more than it is. */
import { describe, expect, it } from 'vitest';
import { computeAuditCoverage, formatCoverageLines } from '../../src/core/audit/index.js';

const base = { probeQuotes: false, probeCount: null, earlierSnapshots: null, typeFiles: 0, dars: 0 };

describe('computeAuditCoverage', () => {
  it('a bare audit: quotes not probed, no mirror, bundled types', () => {
    const c = computeAuditCoverage(base);
    expect(c.quotes).toMatchObject({ checked: false, probes: 0 });
    expect(c.history).toMatchObject({ checked: false, mirror: false, earlierSnapshots: 0 });
    expect(c.types).toMatchObject({ source: 'bundled', typeFiles: 0, dars: 0 });
    expect(formatCoverageLines(c)).toEqual([
      'quotes: not probed (--probe-quotes), a tampered quote would pass',
      'history: no mirror, staleness not checked (a frozen, genuine but old state would pass)',
      "types: bundled type file (the reference server's templates; use --types/--dar for another exchange)",
    ]);
  });

  it('probes, a mirror with earlier snapshots, given type sources', () => {
    const c = computeAuditCoverage({
      probeQuotes: true,
      probeCount: 5,
      earlierSnapshots: 3,
      typeFiles: 1,
      dars: 2,
    });
    expect(c.quotes).toEqual({ checked: true, probes: 5, text: 'quotes: 5 probe quotes recomputed' });
    expect(c.history).toEqual({
      checked: true,
      mirror: true,
      earlierSnapshots: 3,
      text: 'history: 3 earlier snapshots',
    });
    expect(c.types.text).toBe('types: 1 type file + 2 DARs given');
    expect(c.types.source).toBe('given');
  });

  it('probes that could not be checked (no usable answer) are not counted as recomputed', () => {
    const c = computeAuditCoverage({ ...base, probeQuotes: true, probeCount: 33, probesRecomputed: 30 });
    expect(c.quotes).toEqual({
      checked: true,
      probes: 33,
      text: 'quotes: 30 of 33 probe quotes recomputed, 3 could not be checked',
    });
  });

  it('a first snapshot and a failed probe section are not coverage', () => {
    const c = computeAuditCoverage({ ...base, probeQuotes: true, probeCount: null, earlierSnapshots: 0 });
    expect(c.quotes.checked).toBe(false);
    expect(c.quotes.text).toBe('quotes: probing requested, no quote obtained');
    expect(c.history.checked).toBe(false);
    expect(c.history.text).toBe('history: first snapshot in the mirror, staleness not checked yet');
    expect(computeAuditCoverage({ ...base, earlierSnapshots: 1 }).history.text).toBe(
      'history: 1 earlier snapshot',
    );
  });

  it('with a mirror: whether the history saw every followed contract or sampled snapshots, under the history line', () => {
    const none = computeAuditCoverage({ ...base, earlierSnapshots: 2, followed: [] });
    expect(none.followed).toMatchObject({ checked: false, contracts: 0, streams: [] });
    expect(formatCoverageLines(none)[2]).toBe(
      'followed ledger: none, the history is sampled snapshots (mirror follow records every reserve contract)',
    );
    const stream = {
      participant: 'http://127.0.0.1:8080/',
      party: 'auditor::1220aa',
      throughOffset: 231,
      contracts: 57,
      newContracts: 12,
      pools: 8,
      judged: [{ pool: 'p1', through: 231 }],
    };
    const some = computeAuditCoverage({ ...base, earlierSnapshots: 2, followed: [stream] });
    expect(some.followed).toMatchObject({ checked: true, contracts: 57, streams: [stream] });
    expect(formatCoverageLines(some)).toEqual([
      'quotes: not probed (--probe-quotes), a tampered quote would pass',
      'history: 2 earlier snapshots',
      'followed ledger: 57 contracts of 8 pools, every reserve contract up to offset 231 (12 new to this audit; auditor::1220aa at http://127.0.0.1:8080/)',
      "types: bundled type file (the reference server's templates; use --types/--dar for another exchange)",
    ]);
    // no mirror: no line
    expect(computeAuditCoverage(base).followed).toBeUndefined();
  });
});
