/**
 * An append-only sequence with O(log n) range maximum and minimum queries (a segment tree over
 * positions whose capacity doubles as the sequence grows). The swap-event index keeps one per pool
 * for the aggregator's 24 h high/low of `priceAfter`, so a ticker costs the same whatever the
 * length of the history. Ties keep the earliest position (as a left-to-right scan with a strict
 * comparison does).
 */

export class RangeExtremes<T> {
  readonly #values: T[] = [];
  readonly #compare: (a: T, b: T) => number;
  #cap = 1;
  /** node → position of the max (min) of its range; -1 when the range is empty */
  #max = new Int32Array(2).fill(-1);
  #min = new Int32Array(2).fill(-1);

  /** `compare(a, b)` < 0 when a < b, 0 when equal, > 0 when a > b */
  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get length(): number {
    return this.#values.length;
  }

  push(value: T): void {
    const i = this.#values.length;
    this.#values.push(value);
    if (i >= this.#cap) {
      this.#rebuild();
      return;
    }
    let k = i + this.#cap;
    this.#max[k] = i;
    this.#min[k] = i;
    for (k >>= 1; k >= 1; k >>= 1) this.#pull(k);
  }

  /** max and min of positions [from, to); undefined when the range is empty */
  query(from: number, to: number): { max: T; min: T } | undefined {
    let l = Math.max(0, from) + this.#cap;
    let r = Math.min(to, this.#values.length) + this.#cap;
    let max = -1;
    let min = -1;
    // left-side nodes come before right-side ones in position order: combine in that order
    const right: number[] = [];
    while (l < r) {
      if ((l & 1) === 1) {
        max = this.#better(max, this.#max[l] ?? -1, 1);
        min = this.#better(min, this.#min[l] ?? -1, -1);
        l++;
      }
      if ((r & 1) === 1) right.push(--r);
      l >>= 1;
      r >>= 1;
    }
    for (let j = right.length - 1; j >= 0; j--) {
      const k = right[j] ?? 0;
      max = this.#better(max, this.#max[k] ?? -1, 1);
      min = this.#better(min, this.#min[k] ?? -1, -1);
    }
    if (max < 0 || min < 0) return undefined;
    return { max: this.#values[max] as T, min: this.#values[min] as T };
  }

  #rebuild(): void {
    while (this.#cap < this.#values.length) this.#cap *= 2;
    this.#max = new Int32Array(2 * this.#cap).fill(-1);
    this.#min = new Int32Array(2 * this.#cap).fill(-1);
    for (let i = 0; i < this.#values.length; i++) {
      this.#max[i + this.#cap] = i;
      this.#min[i + this.#cap] = i;
    }
    for (let k = this.#cap - 1; k >= 1; k--) this.#pull(k);
  }

  #pull(k: number): void {
    this.#max[k] = this.#better(this.#max[2 * k] ?? -1, this.#max[2 * k + 1] ?? -1, 1);
    this.#min[k] = this.#better(this.#min[2 * k] ?? -1, this.#min[2 * k + 1] ?? -1, -1);
  }

  /** of two positions (a before b), the one holding the larger (sign 1) or smaller (sign -1) value; a on ties */
  #better(a: number, b: number, sign: 1 | -1): number {
    if (a < 0) return b;
    if (b < 0) return a;
    return sign * this.#compare(this.#values[b] as T, this.#values[a] as T) > 0 ? b : a;
  }
}
