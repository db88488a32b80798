/**
 * `watch`'s options are checked before anything runs: a usage error (exit 2) with the option's rule —
 * a webhook that is no http(s) URL (its text redacted), an interval below 1 s against a remote
 * exchange, a metrics port that cannot be bound, an unknown log or alert format.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'watch-usage-'));
const base = ['watch', '--base-url', 'http://127.0.0.1:1/v1/public', '--mirror', join(dir, 'm.db')];

describe('watch usage errors (exit 2)', () => {
  it('a webhook that is not an http(s) URL, with its query values redacted', async () => {
    const r = await runCliForTest([...base, '--alert-webhook', 'ftp://hooks.example/x?token=s3cret']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"--alert-webhook" expected an absolute http\(s\) URL, got ftp:\/\/…/);
    const bad = await runCliForTest([...base, '--alert-webhook', 'not a url?token=s3cret']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('s3cret');
  });

  it('an interval below 1 s against an exchange that is not on this machine', async () => {
    const r = await runCliForTest([
      'watch',
      '--base-url',
      'https://exchange.example/v1/public',
      '--mirror',
      join(dir, 'r.db'),
      '--every',
      '500ms',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"--every" and "--audit-every" expected at least 1s/);
  });

  it('malformed durations and formats', async () => {
    expect((await runCliForTest([...base, '--audit-every', 'soon'])).stderr).toMatch(
      /"--audit-every" expected a duration/,
    );
    expect((await runCliForTest([...base, '--stale-after', '-1s'])).stderr).toMatch(
      /"--stale-after" expected a duration/,
    );
    expect((await runCliForTest([...base, '--log-format', 'xml'])).code).toBe(2);
    expect((await runCliForTest([...base, '--alert-format', 'teams'])).code).toBe(2);
  });

  it('a metrics port already taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const { port } = taken.address() as { port: number };
    try {
      const r = await runCliForTest([...base, '--metrics-port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `"--metrics-port" expected a port free to bind on 127.0.0.1, got ${port} \\(EADDRINUSE\\)`,
        ),
      );
    } finally {
      taken.close();
    }
  });
});
