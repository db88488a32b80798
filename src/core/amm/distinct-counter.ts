/**
 * An append-only sequence of keys that counts the distinct keys of any position range [from, to)
 * in O(log n + (length − to)): a Fenwick tree marks the last occurrence of each key, so the
 * distinct keys of a suffix [from, length) are the marks at or after `from`; keys met only after
 * `to` are taken off by walking that (short) tail with the previous occurrence of each position.
 * The swap-event index uses it for /stats `active_traders.count_90d` (the window ends at now, so
 * the tail is the swaps of the current millisecond, if any).
 */

export class DistinctCounter {
  /** 1-based Fenwick tree over positions: 1 at the last occurrence of a key */
  readonly #tree: number[] = [0];
  /** previous position of the same key, -1 for a first occurrence */
  readonly #prev: number[] = [];
  readonly #last = new Map<string, number>();

  get length(): number {
    return this.#prev.length;
  }

  push(key: string): void {
    const p = this.#prev.length;
    const old = this.#last.get(key) ?? -1;
    if (old >= 0) for (let k = old + 1; k <= p; k += k & -k) this.#tree[k] = (this.#tree[k] ?? 0) - 1;
    const n = p + 1;
    // node n covers positions (n − lowbit(n), n]: its marks before p, plus this new one
    this.#tree[n] = this.#prefix(n - 1) - this.#prefix(n - (n & -n)) + 1;
    this.#prev.push(old);
    this.#last.set(key, p);
  }

  /** distinct keys among positions [from, to) */
  count(from: number, to: number): number {
    const len = this.#prev.length;
    const a = Math.max(0, from);
    const b = Math.min(to, len);
    if (a >= b) return 0;
    let n = this.#prefix(len) - this.#prefix(a);
    // a key whose first occurrence in [b, len) has no earlier occurrence in [a, b) is not in [a, b)
    // (a later occurrence in the tail has its previous one at or after b, never before a)
    for (let q = b; q < len; q++) if ((this.#prev[q] ?? -1) < a) n--;
    return n;
  }

  /** marks among positions [0, k) */
  #prefix(k: number): number {
    let s = 0;
    for (let i = k; i > 0; i -= i & -i) s += this.#tree[i] ?? 0;
    return s;
  }
}
