/**
 * A failed request is never evidence (docs/findings.md "Soundness: retries"): the reference server
 * in-process with a manual clock, the fault-injecting proxy (src/server/fault-proxy.ts) in front of
 * it, faults (429, 5xx, resets, truncated and non-JSON bodies, late answers) injected before chosen
 * responses and swaps in between. The audit must raise no error finding on the honest exchange; a
 * fault that outlasts the budget is could-not-check naming the endpoint and its faults.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/run/audit.js';
import { type FaultProxy, type FaultRequest, startFaultProxy } from '../../src/server/fault-proxy.js';
import type { Fault } from '../../src/server/fault-spec.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
let proxy: FaultProxy;
let plan: (r: FaultRequest) => Fault | null = () => null;

beforeAll(async () => {
  s = await startAuditServer({ seed: 'network-faults' });
  proxy = await startFaultProxy({ target: new URL(s.base).origin, choose: (r) => plan(r) });
}, 30_000);
afterAll(async () => {
  await proxy.close();
  await s.close();
});

const pathOf = (r: FaultRequest): string => r.path.replace(/^\/v1\/public/, '').replace(/\?.*$/, '');

async function audit(o: { probeQuotes?: boolean; timeoutMs?: number } = {}) {
  const r = await runAudit({
    baseUrl: `${proxy.url}/v1/public`,
    probeQuotes: o.probeQuotes ?? true,
    now: () => s.clock.nowMs(),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    maxRps: Number.POSITIVE_INFINITY,
  });
  return { ...r, errors: r.findings.filter((f) => f.severity === 'error') };
}

function traffic(swaps: number): void {
  for (let k = 0; k < swaps; k++) simulateRandomSwap(s.ex, s.ex.rng);
}

describe('transport faults are retried, never judged', () => {
  const kinds: Fault[] = [
    { kind: '429', param: 0 },
    { kind: '503', param: 0 },
    { kind: '502', param: 0 },
    { kind: '500', param: 0 },
    { kind: 'reset', param: 0 },
    { kind: 'truncate', param: 0 },
  ];
  for (const fault of kinds)
    it(`${fault.kind} on every other request (quotes included): passes, every fault retried`, async () => {
      s.clock.advanceMs(61_000);
      traffic(10);
      plan = (r) => (r.index % 2 === 0 ? fault : null);
      try {
        const r = await audit();
        expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
        expect(r.outcome).toBe('passed');
        expect(r.summary.exitCode).toBe(0);
        expect(r.summary.requests?.retried).toBeGreaterThan(10);
        expect(r.summary.requests?.exhausted).toBe(0);
        if (fault.kind === '429') expect(r.summary.requests?.throttled).toBeGreaterThan(10);
      } finally {
        plan = () => null;
      }
    }, 60_000);

  it('a 429 on every quote until the budget runs out: could-not-check naming the faults, never QUOTE_RULE_VIOLATION', async () => {
    s.clock.advanceMs(61_000);
    plan = (r) => (pathOf(r) === '/connect/quote' ? { kind: '429', param: 0 } : null);
    try {
      const r = await audit({ timeoutMs: 1_500 });
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
      plan = () => null;
    }
  }, 60_000);

  it('the closing proofs never answer, under traffic: no error finding', async () => {
    s.clock.advanceMs(61_000);
    traffic(10);
    let proofs = 0;
    plan = (r) => {
      if (pathOf(r) === '/pools/proof' && ++proofs > 2) return { kind: '503', param: 0 };
      if (pathOf(r) === '/aggregator/tickers') traffic(6);
      return null;
    };
    try {
      const r = await audit({ timeoutMs: 1_500 });
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
    } finally {
      plan = () => null;
    }
  }, 60_000);

  it('answers that arrive seconds late (the clock moves and pools swap while they travel): no error finding', async () => {
    s.clock.advanceMs(61_000);
    traffic(10);
    plan = (r) => {
      if (r.index % 3 !== 1) return null;
      // the answer is computed now; while the proxy holds it the exchange moves on
      setTimeout(() => {
        s.clock.advanceMs(4_000);
        traffic(3);
      }, 5);
      return { kind: 'delay', param: 25 };
    };
    try {
      const r = await audit();
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
    } finally {
      plan = () => null;
    }
  }, 60_000);
});

describe('a bracket stretched past one pool snapshot is asked again', () => {
  it('proof, state and proof from three snapshots, every pool moving in between: the state is asked again, compared, exit 0', async () => {
    s.clock.advanceMs(61_000);
    traffic(10);
    // the first proof and the first state each answered, then the exchange took a new pool
    // snapshot (5 s) with every pool moved, as when retries stretch the bracket
    let proofs = 0;
    let states = 0;
    s.setTamper((ctx) => {
      if (ctx.path === '/pools/proof' && ++proofs === 1) {
        s.clock.advanceMs(6_000);
        for (let k = 0; k < 40; k++) simulateRandomSwap(s.ex, s.ex.rng);
      }
      if (ctx.path === '/pools/state' && ++states === 1) {
        s.clock.advanceMs(6_000);
        for (let k = 0; k < 40; k++) simulateRandomSwap(s.ex, s.ex.rng);
      }
      return undefined;
    });
    try {
      const r = await audit({ probeQuotes: false });
      expect(r.errors).toEqual([]);
      expect(r.checks.filter((k) => k.name === 'state.reserves' && k.status !== 'pass')).toEqual([]);
      expect(r.summary.exitCode).toBe(0);
      expect(states).toBe(2);
    } finally {
      s.setTamper(undefined);
    }
  }, 60_000);
});

describe('property: random faults, late answers and traffic interleaved with the audit requests', () => {
  const fault = fc.oneof(
    fc.constant(null),
    fc.constant(null),
    fc.constantFrom<Fault>(
      { kind: '429', param: 0 },
      { kind: '503', param: 0 },
      { kind: '500', param: 0 },
      { kind: 'reset', param: 0 },
      { kind: 'truncate', param: 0 },
    ),
    fc.record({
      kind: fc.constant<'delay'>('delay'),
      param: fc.integer({ min: 10, max: 40 }),
    }),
  );
  it('no error finding on the honest exchange', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            fault,
            swaps: fc.integer({ min: 0, max: 4 }),
            advanceMs: fc.integer({ min: 0, max: 8_000 }),
          }),
          {
            minLength: 20,
            maxLength: 60,
          },
        ),
        fc.boolean(),
        async (steps, probeQuotes) => {
          s.clock.advanceMs(1_000);
          plan = (r) => {
            const step = steps[r.index % steps.length];
            if (step === undefined) return null;
            const move = (): void => {
              s.clock.advanceMs(step.advanceMs);
              traffic(step.swaps);
            };
            // a late answer: the exchange moves while it travels; otherwise before the request
            if (step.fault?.kind === 'delay') setTimeout(move, 5);
            else move();
            return step.fault;
          };
          try {
            const r = await audit({ probeQuotes });
            expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
          } finally {
            plan = () => null;
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 240_000);
});
