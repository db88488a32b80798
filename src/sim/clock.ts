/**
 * The injected clock of the simulated ledger (exchange.ts: "the clock is injected").
 * `systemClock` reads Date.now(); `createManualClock` is a settable clock for deterministic tests
 * and seeded runs (it only moves when told to).
 */
import { ServerError } from '../errors/server.js';

export interface SimClock {
  /** milliseconds since the epoch (integer) */
  nowMs(): number;
}

export interface ManualClock extends SimClock {
  advanceMs(ms: number): void;
  setMs(ms: number): void;
}

export const systemClock: SimClock = { nowMs: () => Date.now() };

/** A clock that starts at `startMs` and moves only through advanceMs / setMs. */
export function createManualClock(startMs: number): ManualClock {
  assertTimeMs('startMs', startMs);
  let now = startMs;
  return {
    nowMs: () => now,
    advanceMs(ms: number): void {
      if (!Number.isInteger(ms) || ms < 0) {
        throw new ServerError('SIMULATOR_OPTION_INVALID', `"ms" expected a non-negative integer, got ${ms}`);
      }
      now += ms;
    },
    setMs(ms: number): void {
      assertTimeMs('ms', ms);
      now = ms;
    },
  };
}

function assertTimeMs(field: string, ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"${field}" expected a non-negative integer of ms, got ${ms}`,
    );
  }
}
