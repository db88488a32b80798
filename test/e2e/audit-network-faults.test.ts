/**
 * A failed request is never evidence (docs/findings.md "Soundness: retries"): the reference server
 * in-process with a manual clock, the fault-injecting proxy (src/server/fault-proxy.ts) in front of
 * it, faults (429, 5xx, resets, truncated and non-JSON bodies, late answers) injected before chosen
 * responses and swaps in between. The audit must raise no error finding on the honest exchange; a
 * fault that outlasts the budget is could-not-check naming the endpoint and its faults. The
 * fast-check property and the 502 / 500 cases (3–8 s of retry back-off each) run in the slow suite:
 * test/slow/audit-network-faults.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/server/fault-spec.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import {
  auditThroughFaults,
  expectEveryOtherRetried,
  pathOf,
  traffic,
  useFaultBench,
} from './fault-bench.js';

const b = useFaultBench('network-faults');

describe('transport faults are retried, never judged', () => {
  // 502 and 500 (the same retry path as 503) run in the slow suite
  const kinds: Fault[] = [
    { kind: '429', param: 0 },
    { kind: '503', param: 0 },
    { kind: 'reset', param: 0 },
    { kind: 'truncate', param: 0 },
  ];
  for (const fault of kinds)
    it(`${fault.kind} on every other request (quotes included): passes, every fault retried`, async () => {
      await expectEveryOtherRetried(b, fault);
    }, 60_000);

  it('a 429 on every quote until the budget runs out: could-not-check naming the faults, never QUOTE_RULE_VIOLATION', async () => {
    b.s.clock.advanceMs(61_000);
    b.plan = (r) => (pathOf(r) === '/connect/quote' ? { kind: '429', param: 0 } : null);
    try {
      const r = await auditThroughFaults(b, { timeoutMs: 1_500 });
      expect(r.errors).toEqual([]);
      expect(r.findings.some((f) => f.code === 'QUOTE_RULE_VIOLATION')).toBe(false);
      expect(r.outcome).toBe('could-not-check');
      expect(r.summary.exitCode).toBe(2);
      const unavailable = r.findings.filter((f) => f.code === 'QUOTE_UNAVAILABLE');
      expect(unavailable.length).toBeGreaterThan(0);
      expect(unavailable[0]?.message).toMatch(/\/connect\/quote.*answered status 429.*429 ×[0-9]+/);
      // the report says none was recomputed (not "N probe quotes recomputed")
      expect(r.summary.coverage.quotes.text).toMatch(/^quotes: 0 of [0-9]+ probe quotes recomputed/);
    } finally {
      b.plan = () => null;
    }
  }, 60_000);

  it('the closing proofs never answer, under traffic: no error finding', async () => {
    b.s.clock.advanceMs(61_000);
    traffic(b, 10);
    let proofs = 0;
    b.plan = (r) => {
      if (pathOf(r) === '/pools/proof' && ++proofs > 2) return { kind: '503', param: 0 };
      if (pathOf(r) === '/aggregator/tickers') traffic(b, 6);
      return null;
    };
    try {
      const r = await auditThroughFaults(b, { timeoutMs: 1_500 });
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
    } finally {
      b.plan = () => null;
    }
  }, 60_000);

  it('answers that arrive seconds late (the clock moves and pools swap while they travel): no error finding', async () => {
    b.s.clock.advanceMs(61_000);
    traffic(b, 10);
    b.plan = (r) => {
      if (r.index % 3 !== 1) return null;
      // the answer is computed now; while the proxy holds it the exchange moves on
      setTimeout(() => {
        b.s.clock.advanceMs(4_000);
        traffic(b, 3);
      }, 5);
      return { kind: 'delay', param: 25 };
    };
    try {
      const r = await auditThroughFaults(b);
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
    } finally {
      b.plan = () => null;
    }
  }, 60_000);
});

describe('a bracket stretched past one pool snapshot is asked again', () => {
  it('proof, state and proof from three snapshots, every pool moving in between: the state is asked again, compared, exit 0', async () => {
    b.s.clock.advanceMs(61_000);
    traffic(b, 10);
    // the first proof and the first state each answered, then the exchange took a new pool
    // snapshot (5 s) with every pool moved, as when retries stretch the bracket
    let proofs = 0;
    let states = 0;
    b.s.setTamper((ctx) => {
      if (ctx.path === '/pools/proof' && ++proofs === 1) {
        b.s.clock.advanceMs(6_000);
        for (let k = 0; k < 40; k++) simulateRandomSwap(b.s.ex, b.s.ex.rng);
      }
      if (ctx.path === '/pools/state' && ++states === 1) {
        b.s.clock.advanceMs(6_000);
        for (let k = 0; k < 40; k++) simulateRandomSwap(b.s.ex, b.s.ex.rng);
      }
      return undefined;
    });
    try {
      const r = await auditThroughFaults(b, { probeQuotes: false });
      expect(r.errors).toEqual([]);
      expect(r.checks.filter((k) => k.name === 'state.reserves' && k.status !== 'pass')).toEqual([]);
      expect(r.summary.exitCode).toBe(0);
      expect(states).toBe(2);
    } finally {
      b.s.setTamper(undefined);
    }
  }, 60_000);
});
