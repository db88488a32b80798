/**
 * Optional per-client token-bucket rate limit (api-decisions §8: off by default; over the limit →
 * `429 rate limit exceeded` with `Retry-After`). One bucket per client key (the remote address);
 * buckets refill continuously at `perSecond` up to `burst`. The bucket map is bounded: idle full
 * buckets are dropped when it grows past `maxClients`.
 */
import { ServerError } from '../errors/server.js';

export interface RateLimitOptions {
  /** sustained requests per second per client, > 0 */
  readonly perSecond: number;
  /** bucket capacity; default max(1, perSecond) */
  readonly burst?: number;
  readonly maxClients?: number;
}

export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  atMs: number;
}

export class RateLimiter {
  readonly #perMs: number;
  readonly #burst: number;
  readonly #maxClients: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(opts: RateLimitOptions, now: () => number) {
    if (!(Number.isFinite(opts.perSecond) && opts.perSecond > 0)) {
      throw new ServerError(
        'SERVER_OPTION_INVALID',
        `"perSecond" expected a positive number, got ${opts.perSecond}`,
      );
    }
    if (opts.burst !== undefined && !(Number.isFinite(opts.burst) && opts.burst >= 1)) {
      throw new ServerError('SERVER_OPTION_INVALID', `"burst" expected a number ≥ 1, got ${opts.burst}`);
    }
    this.#perMs = opts.perSecond / 1000;
    this.#burst = opts.burst ?? Math.max(1, opts.perSecond);
    this.#maxClients = opts.maxClients ?? 10_000;
    this.#now = now;
  }

  /** number of tracked clients */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token from `client`'s bucket, or says how long until one is available. */
  take(client: string): RateDecision {
    const now = this.#now();
    let b = this.#buckets.get(client);
    if (b === undefined) {
      if (this.#buckets.size >= this.#maxClients) this.#prune(now);
      b = { tokens: this.#burst, atMs: now };
      this.#buckets.set(client, b);
    } else {
      b.tokens = Math.min(this.#burst, b.tokens + Math.max(0, now - b.atMs) * this.#perMs);
      b.atMs = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { allowed: true };
    }
    const waitMs = (1 - b.tokens) / this.#perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  #prune(now: number): void {
    for (const [k, b] of this.#buckets) {
      if (b.tokens + (now - b.atMs) * this.#perMs >= this.#burst) this.#buckets.delete(k);
    }
    // still full of active clients: drop the oldest half rather than grow without bound
    if (this.#buckets.size >= this.#maxClients) {
      let n = Math.ceil(this.#buckets.size / 2);
      for (const k of this.#buckets.keys()) {
        if (n-- <= 0) break;
        this.#buckets.delete(k);
      }
    }
  }
}
