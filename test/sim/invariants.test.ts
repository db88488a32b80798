/** Property test (fast-check, few runs): random ledger activity keeps the invariants. Soak: test/slow. */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkInvariants, opArb } from './invariants.js';

describe('ledger invariants under random activity', () => {
  it('k never decreases, LP units never lose value, refunds leave pools untouched, contracts verify', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 12 }),
        fc.string({ maxLength: 8 }),
        (ops, seed) => {
          checkInvariants(`prop-${seed}`, ops);
        },
      ),
      { numRuns: 12, seed: 20261122 },
    );
  });
});
