/**
 * The clock of the watch loop (src/run/watch.ts): the time and an abortable wait, passed in so the
 * loop's tests run hours of schedule without waiting; the real one is Date.now and a timer.
 */
export interface WatchClock {
  now(): number;
  /** resolves after `ms`, or as soon as `signal` aborts */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock: Date.now and an abortable timer. */
export const SYSTEM_WATCH_CLOCK: WatchClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    }),
};
