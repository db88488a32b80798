/** waitCountingDown (src/run/countdown.ts): the audit's re-fetch waits, counted down for a terminal. */
import { expect, it } from 'vitest';
import { waitCountingDown } from '../../src/run/countdown.js';

it('counts whole seconds left before each slice of at most a second, and sleeps exactly the wait', async () => {
  const seen: number[] = [];
  const slept: number[] = [];
  await waitCountingDown(
    2_500,
    (s) => seen.push(s),
    async (d) => {
      slept.push(d);
    },
  );
  expect(seen).toEqual([3, 2, 1]);
  expect(slept).toEqual([1000, 1000, 500]);
  seen.length = 0;
  await waitCountingDown(
    0,
    (s) => seen.push(s),
    async () => {},
  );
  expect(seen).toEqual([]);
});
