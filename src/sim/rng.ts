/**
 * The simulator's random source (docs/protocol/api-decisions.md §3: discriminators and salts are "random 32
 * bytes"; §5 traffic). Two implementations behind one interface:
 * - `createSeededRng(seed)`: deterministic SHA-256 counter-mode stream. Block i =
 *   SHA-256("reserve-audit/sim-rng/v1" ‖ utf8(seed) ‖ 0x00 ‖ u64be(i)). Same seed → same bytes, so
 *   the same contract IDs and events. Its state (seed, block counter, unread bytes) is
 *   serializable, so a restarted server continues the same stream.
 * - `createCryptoRng()`: node:crypto random bytes (not reproducible; state is not saved).
 * Not a cryptographic DRBG for secrets: the simulator has none (salts only need to be unpredictable
 * enough for a demo ledger; a seeded run is predictable by design).
 */
import { randomBytes } from 'node:crypto';
import type { Sha256 } from '../core/hash/sha256.js';
import { ServerError } from '../errors/server.js';
import { sha256Node } from '../io/node-sha256.js';

export interface SimRng {
  /** n fresh random bytes */
  bytes(n: number): Uint8Array;
  /** uniform integer in [0, maxExclusive), maxExclusive in 1..2^32 (rejection sampling, no bias) */
  int(maxExclusive: number): number;
  /** uniform float in [0, 1) with 32 bits of randomness (for choices and timing, never for amounts) */
  float(): number;
  /** serialized state for persistence, or null when the stream cannot be resumed (crypto RNG) */
  saveState(): string | null;
  /**
   * Resumes a stream saved by `saveState()` (a restarted server): true when the state was taken
   * (a seeded RNG with the same seed), false otherwise (the RNG keeps its own state).
   */
  loadState(state: string): boolean;
}

const DOMAIN = new TextEncoder().encode('reserve-audit/sim-rng/v1');

interface SeededState {
  readonly seed: string;
  readonly block: string;
  readonly pending: string;
}

abstract class BaseRng implements SimRng {
  abstract bytes(n: number): Uint8Array;
  abstract saveState(): string | null;
  abstract loadState(state: string): boolean;

  int(maxExclusive: number): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > 2 ** 32) {
      throw new ServerError(
        'SIMULATOR_OPTION_INVALID',
        `"maxExclusive" expected an integer in 1..2^32, got ${maxExclusive}`,
      );
    }
    const limit = 2 ** 32 - (2 ** 32 % maxExclusive);
    for (;;) {
      const v = this.u32();
      if (v < limit) return v % maxExclusive;
    }
  }

  float(): number {
    return this.u32() / 2 ** 32;
  }

  private u32(): number {
    const b = this.bytes(4);
    return ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
  }
}

class SeededRng extends BaseRng {
  private readonly seedBytes: Uint8Array;
  private block: bigint;
  private pending: Uint8Array;

  constructor(
    private readonly seed: string,
    private readonly sha256: Sha256,
    block = 0n,
    pending: Uint8Array = new Uint8Array(0),
  ) {
    super();
    this.seedBytes = new TextEncoder().encode(seed);
    this.block = block;
    this.pending = pending;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      if (this.pending.length === 0) this.pending = this.nextBlock();
      const take = Math.min(n - filled, this.pending.length);
      out.set(this.pending.subarray(0, take), filled);
      this.pending = this.pending.subarray(take);
      filled += take;
    }
    return out;
  }

  saveState(): string {
    const state: SeededState = {
      seed: this.seed,
      block: this.block.toString(),
      pending: Buffer.from(this.pending).toString('hex'),
    };
    return JSON.stringify(state);
  }

  loadState(state: string): boolean {
    if (!isRngStateOfSeed(state, this.seed)) return false;
    const restored = restoreSeededRng(state, this.sha256) as SeededRng;
    this.block = restored.block;
    this.pending = restored.pending;
    return true;
  }

  private nextBlock(): Uint8Array {
    const input = new Uint8Array(DOMAIN.length + this.seedBytes.length + 1 + 8);
    input.set(DOMAIN, 0);
    input.set(this.seedBytes, DOMAIN.length);
    new DataView(input.buffer).setBigUint64(DOMAIN.length + this.seedBytes.length + 1, this.block);
    this.block += 1n;
    return this.sha256(input).slice();
  }
}

class CryptoRng extends BaseRng {
  bytes(n: number): Uint8Array {
    return new Uint8Array(randomBytes(n));
  }
  saveState(): null {
    return null;
  }
  loadState(): boolean {
    return false;
  }
}

/** A deterministic stream for `--seed`; `sha256` defaults to node:crypto. */
export function createSeededRng(seed: string, sha256: Sha256 = sha256Node): SimRng {
  return new SeededRng(seed, sha256);
}

/** A crypto-random source (the default when no seed is given). */
export function createCryptoRng(): SimRng {
  return new CryptoRng();
}

/** Restores a seeded stream saved with `saveState()`; throws DB_CORRUPT on a malformed state. */
function restoreSeededRng(state: string, sha256: Sha256 = sha256Node): SimRng {
  try {
    const parsed = JSON.parse(state) as Partial<SeededState>;
    if (
      typeof parsed.seed !== 'string' ||
      typeof parsed.block !== 'string' ||
      !/^\d+$/.test(parsed.block) ||
      typeof parsed.pending !== 'string' ||
      !/^([0-9a-f]{2})*$/.test(parsed.pending)
    ) {
      throw new Error('bad shape');
    }
    return new SeededRng(
      parsed.seed,
      sha256,
      BigInt(parsed.block),
      new Uint8Array(Buffer.from(parsed.pending, 'hex')),
    );
  } catch (cause) {
    throw new ServerError(
      'DB_CORRUPT',
      `"rng_state" expected a saved seeded RNG state, got ${state.slice(0, 60)}`,
      {
        cause,
      },
    );
  }
}

/** Whether a saved state belongs to a seeded RNG with this seed. */
function isRngStateOfSeed(state: string, seed: string): boolean {
  try {
    return (JSON.parse(state) as Partial<SeededState>).seed === seed;
  } catch {
    return false;
  }
}
