/** Soak (npm run test:slow): many random activity sequences on every contract-ID version. */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkInvariants, opArb } from '../sim/invariants.js';

describe('simulated ledger soak', () => {
  it.each(['v10', 'v11', 'v12'] as const)('invariants hold for %s', (version) => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.string({ maxLength: 8 }),
        (ops, seed) => {
          checkInvariants(`soak-${seed}`, ops, version);
        },
      ),
      { numRuns: 60 },
    );
  });
});
