/**
 * The network-fault tests' bench (test/e2e/audit-network-faults.test.ts, test/slow/audit-network-faults.test.ts):
 * the reference server in-process with a manual clock and the fault-injecting proxy in front of it;
 * `plan` chooses the fault before each request.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { runAudit } from '../../src/run/audit.js';
import { type FaultProxy, type FaultRequest, startFaultProxy } from '../../src/server/fault-proxy.js';
import type { Fault } from '../../src/server/fault-spec.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

export interface FaultBench {
  /** set by beforeAll */
  s: AuditServer;
  proxy: FaultProxy;
  plan: (r: FaultRequest) => Fault | null;
}

/** Starts the server and the proxy before the file's tests and stops them after. */
export function useFaultBench(seed: string): FaultBench {
  const bench = { plan: () => null } as unknown as FaultBench;
  beforeAll(async () => {
    bench.s = await startAuditServer({ seed });
    bench.proxy = await startFaultProxy({
      target: new URL(bench.s.base).origin,
      choose: (r) => bench.plan(r),
    });
  }, 30_000);
  afterAll(async () => {
    await bench.proxy.close();
    await bench.s.close();
  });
  return bench;
}

export const pathOf = (r: FaultRequest): string => r.path.replace(/^\/v1\/public/, '').replace(/\?.*$/, '');

export async function auditThroughFaults(
  b: FaultBench,
  o: { probeQuotes?: boolean; timeoutMs?: number } = {},
) {
  const r = await runAudit({
    baseUrl: `${b.proxy.url}/v1/public`,
    probeQuotes: o.probeQuotes ?? true,
    now: () => b.s.clock.nowMs(),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    maxRps: Number.POSITIVE_INFINITY,
  });
  return { ...r, errors: r.findings.filter((f) => f.severity === 'error') };
}

export function traffic(b: FaultBench, swaps: number): void {
  for (let k = 0; k < swaps; k++) simulateRandomSwap(b.s.ex, b.s.ex.rng);
}

/** A transport fault on every other request (quotes included): the audit passes, every fault retried. */
export async function expectEveryOtherRetried(b: FaultBench, fault: Fault): Promise<void> {
  b.s.clock.advanceMs(61_000);
  traffic(b, 10);
  b.plan = (r) => (r.index % 2 === 0 ? fault : null);
  try {
    const r = await auditThroughFaults(b);
    expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
    expect(r.outcome).toBe('passed');
    expect(r.summary.exitCode).toBe(0);
    expect(r.summary.requests?.retried).toBeGreaterThan(10);
    expect(r.summary.requests?.exhausted).toBe(0);
    if (fault.kind === '429') expect(r.summary.requests?.throttled).toBeGreaterThan(10);
  } finally {
    b.plan = () => null;
  }
}
