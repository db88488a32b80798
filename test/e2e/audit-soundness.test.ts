/**
 * Soundness under traffic (docs/findings.md "Soundness"): the simulator in-process with a manual
 * clock, swaps injected at chosen points between the auditor's requests (and the clock moved
 * across the 5 s pool-snapshot and the cache windows), and the audit must raise no error finding
 * on the honest exchange. The fast-check property over random traffic, the /stats TVL tests that
 * follow it (they run on the state it leaves) and the probe quotes that wait out re-fetch rounds
 * run in the slow suite (test/slow/audit-soundness.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';
import { auditMovingQuotes, auditWith, type Injection } from './soundness-audits.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ seed: 'soundness' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

describe('swaps between the auditor requests raise no error', () => {
  const points: [string, Injection[]][] = [
    ['between proof and state', [{ after: '/pools/proof', swaps: 6, advanceMs: 1_000 }]],
    ['between state and the second proof', [{ after: '/pools/state', swaps: 6, advanceMs: 6_000 }]],
    ['between state and the order books', [{ after: '/aggregator/tickers', swaps: 8, advanceMs: 6_000 }]],
    ['between the quote and the closing proofs', [{ after: '/connect/quote', swaps: 8, advanceMs: 6_000 }]],
    [
      'inside a cache window (stats and volume computed apart)',
      [
        { after: '/stats', swaps: 10, advanceMs: 31_000 },
        { after: '/aggregator/pairs', swaps: 4, advanceMs: 11_000 },
      ],
    ],
  ];
  for (const [name, inj] of points)
    it(name, async () => {
      s.clock.advanceMs(61_000); // a fresh cache window for every scenario
      for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
      const r = await auditWith(s, inj);
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
      expect(r.outcome).not.toBe('failed');
    }, 30_000);
});

describe('probe quotes carry the reserve contract they were priced on (?include_proof=true)', () => {
  it('a quote priced on a contract no proof showed is checked against its own proven blob', async () => {
    const r = await auditMovingQuotes(s);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.findings.filter((f) => f.code === 'QUOTE_UNAVAILABLE')).toEqual([]);
    expect(r.quoteChecks.length).toBeGreaterThan(0);
    expect(r.quoteChecks.every((k) => k.status === 'pass')).toBe(true);
    expect(r.summary.exitCode).toBe(0);
  }, 60_000);

  it('a too generous quote on such a contract fails (QUOTE_TOO_GENEROUS, exit 1)', async () => {
    const r = await auditMovingQuotes(s, (q) => {
      const [i, f = ''] = q.returned.amount.split('.');
      q.returned.amount = `${BigInt(i ?? '0') + 1n}.${f}`;
    });
    const f = r.findings.find((x) => x.code === 'QUOTE_TOO_GENEROUS');
    expect(f?.severity).toBe('error');
    expect(f?.label).toBe('proven');
    expect(r.summary.exitCode).toBe(1);
  }, 60_000);

  it('genuine blobs pass their quote.proof check', async () => {
    const r = await auditMovingQuotes(s);
    const proofs = r.checks.filter((k) => k.name === 'quote.proof');
    expect(proofs.length).toBeGreaterThan(0);
    expect(proofs.every((k) => k.status === 'pass')).toBe(true);
  }, 60_000);
});
