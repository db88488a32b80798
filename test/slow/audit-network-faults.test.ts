/**
 * The slow part of the network-fault tests (test/e2e/audit-network-faults.test.ts holds the rest):
 * 502 and 500 on every other request, and the fast-check property of random faults, late answers
 * and traffic. The client's retry back-off is real time: 3–4 s per audit, some 8 s for the property.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/server/fault-spec.js';
import { auditThroughFaults, expectEveryOtherRetried, traffic, useFaultBench } from '../e2e/fault-bench.js';

const b = useFaultBench('network-faults');

describe('transport faults are retried, never judged', () => {
  const kinds: Fault[] = [
    { kind: '502', param: 0 },
    { kind: '500', param: 0 },
  ];
  for (const fault of kinds)
    it(`${fault.kind} on every other request (quotes included): passes, every fault retried`, async () => {
      await expectEveryOtherRetried(b, fault);
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
          b.s.clock.advanceMs(1_000);
          b.plan = (r) => {
            const step = steps[r.index % steps.length];
            if (step === undefined) return null;
            const move = (): void => {
              b.s.clock.advanceMs(step.advanceMs);
              traffic(b, step.swaps);
            };
            // a late answer: the exchange moves while it travels; otherwise before the request
            if (step.fault?.kind === 'delay') setTimeout(move, 5);
            else move();
            return step.fault;
          };
          try {
            const r = await auditThroughFaults(b, { probeQuotes });
            expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
          } finally {
            b.plan = () => null;
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 240_000);
});
