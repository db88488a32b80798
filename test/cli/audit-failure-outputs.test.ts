/**
 * The CI contract of `audit` (issue 25): once the options parse, every output asked for is written
 * even when the audit cannot run — `--json` a document with outcome could-not-check and the reason,
 * `--junit` one errored testcase naming the cause, `--html` a page saying could not check — with the
 * exit code of today (2) and the one stderr line of today. Credentials in the URL appear nowhere.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { findClosedPort } from './helpers/spawn-cli.js';

let dir: string;
let base: string;
let display: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-failure-'));
  const port = await findClosedPort();
  base = `http://auditor:s3cret@127.0.0.1:${port}/v1/public`;
  display = `http://127.0.0.1:${port}/v1/public`;
});

describe('audit against an unreachable exchange', () => {
  it('--json prints the failure document, --junit and --html are written (exit 2)', async () => {
    const junit = join(dir, 'junit.xml');
    const html = join(dir, 'report.html');
    const r = await runCliForTest(
      ['audit', '--base-url', base, '--timeout', '2000', '--json', '--junit', junit, '--html', html],
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as {
      summary: Record<string, unknown> & { reason: { code: string; message: string } };
      pools: unknown[];
      findings: unknown[];
      checks: unknown[];
    };
    expect(doc.summary).toMatchObject({ outcome: 'could-not-check', exitCode: 2, baseUrl: display });
    expect(doc.summary.reason.code).toBe('HTTP_CONNECT_FAILED');
    expect(doc.summary.reason.message).toMatch(
      /^could not connect to http:\/\/127\.0\.0\.1:\d+\/v1\/public\//,
    );
    expect([doc.pools, doc.findings, doc.checks]).toEqual([[], [], []]);
    // stderr: the progress line and the one could-not-check line, as without --json
    expect(r.stderr).toMatch(/^reserve-audit: could not check: HTTP_CONNECT_FAILED: could not connect/m);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="reserve-audit" tests="1" failures="0" errors="1" skipped="0">/,
    );
    expect(xml).toContain(
      `<testcase classname="audit" name="audit [${display}]"><error message="could not check: HTTP_CONNECT_FAILED" type="HTTP_CONNECT_FAILED">HTTP_CONNECT_FAILED: could not connect to ${display}/`,
    );
    expect(xml.match(/<testcase /g)).toHaveLength(1);

    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toContain(
      'data-outcome="could-not-check" data-exit-code="2" data-reason-code="HTTP_CONNECT_FAILED"',
    );
    expect(page).toContain('<div class="outcome">COULD NOT CHECK</div>');
    expect(page).toContain('could not connect to');

    for (const text of [r.stdout, r.stderr, xml, page]) expect(text).not.toContain('s3cret');
  });

  it('text mode: nothing on stdout, the one stderr line as before (exit 2)', async () => {
    const r = await runCliForTest(['audit', '--base-url', base, '--timeout', '2000'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /^reserve-audit: could not check: HTTP_CONNECT_FAILED: could not connect to http:\/\/127\.0\.0\.1:\d+\//,
    );
  });

  it('an output file that cannot be written does not stop the others', async () => {
    const html = join(dir, 'still.html');
    const badJunit = join(dir, 'no-such-dir', 'junit.xml');
    const r = await runCliForTest(
      ['audit', '--base-url', base, '--timeout', '2000', '--json', '--junit', badJunit, '--html', html],
      { cwd: dir },
    );
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { summary: { outcome: string } }).summary.outcome).toBe(
      'could-not-check',
    );
    expect(readFileSync(html, 'utf8')).toContain('data-reason-code="HTTP_CONNECT_FAILED"');
    expect(r.stderr).toContain('"--junit" expected a writable file path');
  });

  it('a bad option is still a usage error before anything is written', async () => {
    const r = await runCliForTest(['audit', '--base-url', base, '--timeout', '0', '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/"--timeout" expected/);
  });
});
