/**
 * Server-side response cache (docs/protocol/public-api.md "Limits" cache durations, api-decisions §8).
 *
 * Windows are aligned to the injected clock: an entry made for key K with a TTL of N seconds is
 * valid for the window `[floor(now / N) · N, (floor(now / N) + 1) · N)`, so every response for K
 * within one window is byte-identical, and two endpoints that share a window (e.g. /pools/state and
 * /pools/proof, both built from one pool snapshot) describe the same moment. The map is bounded:
 * past `maxEntries` the oldest entry is evicted (keys can contain client-chosen query values).
 */

export interface CacheOptions {
  readonly now: () => number;
  readonly maxEntries?: number;
}

interface Entry<T> {
  readonly windowId: number;
  readonly value: T;
}

export class WindowCache<T> {
  readonly #now: () => number;
  readonly #max: number;
  readonly #entries = new Map<string, Entry<T>>();

  constructor(opts: CacheOptions) {
    this.#now = opts.now;
    this.#max = opts.maxEntries ?? 1024;
  }

  /** The id of the current window of `ttlMs` (consecutive integers). */
  windowId(ttlMs: number): number {
    return Math.floor(this.#now() / ttlMs);
  }

  /** Returns the value cached for `key` in the current window of `ttlMs`, computing it if absent. */
  get(key: string, ttlMs: number, compute: () => T): T {
    const windowId = this.windowId(ttlMs);
    const fullKey = `${ttlMs}|${key}`;
    const hit = this.#entries.get(fullKey);
    if (hit !== undefined && hit.windowId === windowId) return hit.value;
    const value = compute();
    if (hit !== undefined) this.#entries.delete(fullKey);
    this.#entries.set(fullKey, { windowId, value });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
