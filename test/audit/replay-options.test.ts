/**
 * runReplay's period bounds (library callers; the CLI validates its dates itself): a bound a Date
 * cannot hold, or not an integer, is an AuditError AUDIT_OPTION_INVALID naming the option — before
 * anything is opened — instead of a RangeError while the summary is formatted.
 */
import { expect, it } from 'vitest';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { runReplay } from '../../src/run/replay.js';

it.each([
  ['fromMs', 8.64e15 + 1],
  ['toMs', -8.64e15 - 1],
  ['fromMs', Number.POSITIVE_INFINITY],
  ['toMs', Number.NaN],
  ['fromMs', 1.5],
])('%s = %s is refused with AUDIT_OPTION_INVALID', async (name, ms) => {
  await expect(
    runReplay({
      mirrorPath: '/nonexistent/never-opened.sqlite',
      profile: DEFAULT_RESERVE_PROFILE,
      [name]: ms,
    }),
  ).rejects.toMatchObject({
    code: 'AUDIT_OPTION_INVALID',
    message: expect.stringContaining(`"${name}" expected an integer time in ms`),
  });
});

it('the Date range itself is accepted (then the missing mirror is the error)', async () => {
  await expect(
    runReplay({
      mirrorPath: '/nonexistent/never-opened.sqlite',
      profile: DEFAULT_RESERVE_PROFILE,
      fromMs: -8.64e15,
      toMs: 8.64e15,
    }),
  ).rejects.toMatchObject({ code: 'MIRROR_UNAVAILABLE' });
});
