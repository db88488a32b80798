/**
 * Exit code 3: an internal error (anything thrown that is not a ReserveAuditError — a bug) is one
 * line on stderr, with its stack only under the global `--debug`; distinct from 2 (could not
 * check). The decoder is replaced by one that throws a TypeError to stand in for a bug.
 */
import { describe, expect, it, vi } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

vi.mock('../../src/core/codec/index.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/core/codec/index.js')>()),
  decodeCreatedEventBlob: (): never => {
    throw new TypeError('boom: a bug');
  },
}));

describe('an internal error', () => {
  it('exits 3 with one line on stderr and no stack', async () => {
    const r = await runCliForTest(['decode', 'AAAA']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'reserve-audit: internal error: boom: a bug (a bug; run again with --debug for the stack)\n',
    );
    expect(r.stderr).not.toContain('    at ');
  });

  it('prints the stack under --debug (before or after the command)', async () => {
    for (const argv of [
      ['decode', 'AAAA', '--debug'],
      ['--debug', 'decode', 'AAAA'],
    ]) {
      const r = await runCliForTest(argv);
      expect(r.code).toBe(3);
      const lines = r.stderr.split('\n');
      expect(lines[0]).toBe('reserve-audit: internal error: boom: a bug');
      expect(lines[1]).toBe('TypeError: boom: a bug');
      expect(r.stderr).toMatch(/\n {4}at /);
    }
  });

  it('a typed error stays exit 2 without a stack', async () => {
    const r = await runCliForTest(['decode', 'not base64!']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^reserve-audit: could not check: [A-Z0-9_]+: /);
  });
});
