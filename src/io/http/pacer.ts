/**
 * The auditor's pacing: how fast and how many at once it sends requests to one exchange, so a real
 * exchange never sees it as an attack (docs/cli.md "Pacing"). Every attempt — a retry included —
 * takes a token of a bucket refilled at the current rate and a slot of a fixed number in flight.
 * The rate starts at `maxRps`; a 429 halves it (never below `maxRps / 50`) — the throttled request
 * itself waits out its `Retry-After` (src/io/http/client.ts) — and each answer that is not a 429
 * gives back `maxRps / 10`, up to `maxRps`. So against a real rate limiter the auditor settles
 * near the limit, while a gateway that throttles at random costs a bounded slowdown.
 */

export interface PacerOptions {
  /** requests per second at most (default 50) */
  readonly maxRps?: number;
  /** requests in flight at most (default 8) */
  readonly maxInFlight?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface Pacer {
  /** Waits for a token and a slot; call the returned function when the attempt is over. */
  acquire(): Promise<() => void>;
  /** A 429 arrived: halve the rate. */
  onThrottled(): void;
  /** Any other answer arrived: raise the rate towards the maximum. */
  onAnswered(): void;
  readonly maxRps: number;
  readonly maxInFlight: number;
}

export const DEFAULT_MAX_RPS = 50;
export const DEFAULT_MAX_IN_FLIGHT = 8;

/** Creates a pacer; `maxRps` Infinity turns the rate off (the in-flight limit stays). */
export function createPacer(o: PacerOptions = {}): Pacer {
  const maxRps = o.maxRps ?? DEFAULT_MAX_RPS;
  const maxInFlight = o.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const floor = maxRps / 50;
  let rate = maxRps;
  let inFlight = 0;
  const waiting: (() => void)[] = [];

  async function slot(): Promise<void> {
    if (inFlight < maxInFlight) {
      inFlight++;
      return;
    }
    await new Promise<void>((res) => waiting.push(res));
  }

  function release(): void {
    const next = waiting.shift();
    if (next !== undefined) next();
    else inFlight--;
  }

  /**
   * Tokens are granted one at a time, in order, each `1000 / rate` ms after the previous one at
   * the rate in force when it is granted — not reserved ahead at the rate of the moment a request
   * queued (a queue reserved during a throttled second would keep the slow pace long after the
   * rate recovered). A waiter sleeps in slices of at most 50 ms, so a change of rate takes effect.
   */
  let gate: Promise<void> = Promise.resolve();
  let lastAt = Number.NEGATIVE_INFINITY;
  function token(): Promise<void> {
    if (!Number.isFinite(rate)) return Promise.resolve();
    const turn = gate.then(async () => {
      for (;;) {
        const t = now();
        const due = lastAt + 1000 / rate;
        if (t >= due) {
          lastAt = t;
          return;
        }
        await sleep(Math.min(due - t, 50));
      }
    });
    gate = turn;
    return turn;
  }

  return {
    maxRps,
    maxInFlight,
    async acquire() {
      await slot();
      await token();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
      };
    },
    onThrottled() {
      if (Number.isFinite(rate)) rate = Math.max(floor, rate / 2);
    },
    onAnswered() {
      if (Number.isFinite(rate)) rate = Math.min(maxRps, rate + maxRps / 10);
    },
  };
}
