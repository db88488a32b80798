/**
 * Soundness under traffic (docs/findings.md "Soundness"): the simulator in-process with a manual
 * clock, swaps injected at chosen points between the auditor's requests (and the clock moved
 * across the 5 s pool-snapshot and the cache windows), and the audit must raise no error finding
 * on the honest exchange. A fast-check property interleaves random traffic with the requests.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runAudit } from '../../src/run/audit.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ seed: 'soundness' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

interface Injection {
  /** after the response to this path (below /v1/public) */
  readonly after: string;
  readonly swaps: number;
  readonly advanceMs: number;
}

async function auditWith(injections: readonly Injection[], probeQuotes = true) {
  const pending = [...injections];
  s.setTamper((ctx) => {
    for (let i = 0; i < pending.length; i++) {
      const inj = pending[i];
      if (inj === undefined || inj.after !== ctx.path) continue;
      pending.splice(i, 1);
      s.clock.advanceMs(inj.advanceMs);
      for (let k = 0; k < inj.swaps; k++) simulateRandomSwap(s.ex, s.ex.rng);
      break;
    }
    return undefined;
  });
  try {
    const r = await runAudit({ baseUrl: s.base, probeQuotes, now: () => s.clock.nowMs(), exitCodeOf });
    return { ...r, errors: r.findings.filter((f) => f.severity === 'error') };
  } finally {
    s.setTamper(undefined);
  }
}

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
      const r = await auditWith(inj);
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
      expect(r.outcome).not.toBe('failed');
    }, 30_000);
});

describe('property: random traffic interleaved with the audit requests', () => {
  const paths = [
    '/pools/proof',
    '/pools/state',
    '/tokens/info',
    '/exchange/info',
    '/pools/info',
    '/stats',
    '/volume',
    '/aggregator/pairs',
    '/aggregator/tickers',
    '/aggregator/orderbook',
    '/connect/quote',
  ];
  it('no error finding on the honest exchange', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            after: fc.constantFrom(...paths),
            swaps: fc.integer({ min: 0, max: 6 }),
            advanceMs: fc.integer({ min: 0, max: 12_000 }),
          }),
          { maxLength: 5 },
        ),
        fc.boolean(),
        async (inj, probe) => {
          s.clock.advanceMs(1_000);
          const r = await auditWith(inj, probe);
          expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);
});
