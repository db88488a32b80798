/**
 * A wait that counts itself down: a long pause of a pipeline (the audit's re-fetch rounds waiting for
 * the exchange's caches) tells how many seconds are left about once a second, so a terminal can show
 * a count instead of a silent phase. The sleep is passed in for tests.
 */

/** Waits `ms`, calling `onSeconds` with the whole seconds left before each slice of at most 1 s. */
export async function waitCountingDown(
  ms: number,
  onSeconds: (secondsLeft: number) => void,
  sleep: (ms: number) => Promise<void> = (d) => new Promise((r) => setTimeout(r, d)),
): Promise<void> {
  for (let left = ms; left > 0; left -= 1000) {
    onSeconds(Math.ceil(left / 1000));
    await sleep(Math.min(left, 1000));
  }
}
