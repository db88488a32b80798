/**
 * The CI contract of `audit` for a bug: anything thrown that is not a ReserveAuditError still gives
 * every output asked for — outcome `internal-error`, exitCode 3, reason INTERNAL_ERROR — and exit 3
 * with the one internal-error line. runAudit is replaced by one that throws a TypeError.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

vi.mock('../../src/run/audit.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/run/audit.js')>()),
  runAudit: (): never => {
    throw new TypeError('boom: a bug\nsecond line');
  },
}));

describe('audit hitting a bug', () => {
  it('writes the internal-error documents and exits 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-bug-'));
    const junit = join(dir, 'junit.xml');
    const html = join(dir, 'report.html');
    const r = await runCliForTest(
      [
        'audit',
        '--base-url',
        'http://127.0.0.1:9/v1/public?token=hidden',
        '--json',
        '--junit',
        junit,
        '--html',
        html,
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      summary: {
        outcome: 'internal-error',
        exitCode: 3,
        baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/v1\/public\?token=/),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        reason: { code: 'INTERNAL_ERROR', message: 'boom: a bug' },
      },
      pools: [],
      findings: [],
      checks: [],
    });
    expect(r.stderr).toBe(
      'reserve-audit: internal error: boom: a bug (a bug; run again with --debug for the stack)\n',
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain(
      '<error message="internal error: INTERNAL_ERROR" type="INTERNAL_ERROR">INTERNAL_ERROR: boom: a bug</error>',
    );
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('data-outcome="internal-error" data-exit-code="3"');
    expect(page).toContain('<div class="outcome">INTERNAL ERROR</div>');
    for (const text of [r.stdout, xml, page]) expect(text).not.toContain('hidden');
  });
});
