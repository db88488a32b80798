/**
 * Credentials never leak: a base URL with `user:password@`, any query parameter value or a
 * fragment (redacted by rule, not by a list of names: src/io/http/redact-url.ts) is parsed once into the URL requests go to and its redacted form, and only the
 * redacted form reaches any output — the progress lines, the human report, the JSON summary, the
 * JUnit file, the mirror (audit_runs, snapshots, raw responses), the HTML report and the error
 * messages of an unreachable or invalid URL.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorForReading } from '../../src/run/history.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

const SECRET = 'S3cret-Pw-91';
const TOKEN = 'Tok-S3cret-77';

let s: AuditServer;
let dir: string;
let withPassword: string;
let redacted: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'credentials' });
  dir = mkdtempSync(join(tmpdir(), 'audit-credentials-'));
  const u = new URL(s.base);
  redacted = `${u.origin}${u.pathname}`;
  withPassword = `${u.protocol}//auditor:${SECRET}@${u.host}${u.pathname}`;
}, 30_000);
afterAll(async () => {
  await s.close();
});

/** Every byte of the files given (and a SQLite database's -wal/-journal companions). */
function filesText(...paths: string[]): string {
  const all = paths.flatMap((p) => [p, `${p}-wal`, `${p}-journal`]).filter((p) => existsSync(p));
  return all.map((p) => readFileSync(p).toString('latin1')).join('\n');
}

describe('a password in --base-url', () => {
  it('reaches no output of audit (text, JSON, JUnit, mirror) nor report --html', async () => {
    const mirror = join(dir, 'pw.db');
    const junit = join(dir, 'pw.xml');
    const html = join(dir, 'pw.html');
    const text = await runCliForTest([
      'audit',
      '--base-url',
      withPassword,
      '--mirror',
      mirror,
      '--junit',
      junit,
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(redacted);
    expect(text.stderr).toContain(`fetching ${redacted}`);
    const json = await runCliForTest(['audit', '--base-url', withPassword, '--mirror', mirror, '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { summary: { baseUrl: string } };
    expect(doc.summary.baseUrl).toBe(redacted);
    const rep = await runCliForTest(['report', '--mirror', mirror, '--html', html]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(redacted);
    const m = await openMirrorForReading(mirror);
    try {
      const runs = await m.readAuditRuns();
      expect(runs).toHaveLength(2);
      for (const r of runs) expect(r.baseUrl).toBe(redacted);
    } finally {
      await m.close();
    }
    const everything = [text.stdout, text.stderr, json.stdout, json.stderr, rep.stdout, rep.stderr].join(
      '\n',
    );
    for (const needle of [SECRET, `auditor:`])
      expect(everything + filesText(junit, html, mirror)).not.toContain(needle);
  }, 60_000);

  it('reaches no error message when the server is unreachable or the URL is invalid', async () => {
    const dead = `http://auditor:${SECRET}@127.0.0.1:1/v1/public`;
    for (const argv of [
      ['audit', '--base-url', dead, '--timeout', '2000'],
      ['audit', '--base-url', dead, '--timeout', '2000', '--json'],
      ['snapshot', '--base-url', dead, '--mirror', join(dir, 'dead.db'), '--timeout', '2000'],
      ['audit', '--base-url', `http://auditor:${SECRET}@exa mple.org/v1`],
      ['audit', '--base-url', `auditor:${SECRET}@example.org`],
    ]) {
      const r = await runCliForTest(argv);
      expect(r.code, argv.join(' ')).not.toBe(0);
      expect(r.stdout + r.stderr, argv.join(' ')).not.toContain(SECRET);
    }
  }, 60_000);
});

describe('a sensitive query value in --base-url', () => {
  it('is redacted in every output', async () => {
    const mirror = join(dir, 'token.db');
    const junit = join(dir, 'token.xml');
    const url = `${s.base}?token=${TOKEN}`;
    const r = await runCliForTest([
      'audit',
      '--base-url',
      url,
      '--mirror',
      mirror,
      '--junit',
      junit,
      '--json',
    ]);
    // whatever the exchange makes of the query, the token must not come back out
    const doc = JSON.parse(r.stdout) as { summary: { baseUrl: string } };
    expect(doc.summary.baseUrl).toMatch(/token=\*\*\*/);
    expect(r.stdout + r.stderr + filesText(junit, mirror)).not.toContain(TOKEN);
  }, 60_000);
});

describe('a secret in any query parameter or the fragment of --base-url (redaction by rule)', () => {
  // names no list of "sensitive" parameters held before issue 30, each with its own planted secret
  const NAMES = [
    'client_secret',
    'api-key',
    'x-api-key',
    'accessToken',
    'auth_token',
    'jwt',
    'session',
    'private_key',
    'X-Amz-Signature',
    'plain',
  ];
  const secretOf = (i: number): string => `Planted${i}Zq${(i * 7919).toString(36)}X`;

  it('is found in no output: stdout, stderr, --json, --junit, --html, report --html, the mirror file', async () => {
    const mirror = join(dir, 'rule.db');
    const junit = join(dir, 'rule.xml');
    const html = join(dir, 'rule.html');
    const reportHtml = join(dir, 'rule-report.html');
    const u = new URL(s.base);
    const query = NAMES.map((n, i) => `${n}=${secretOf(i)}`).join('&');
    const fragmentSecret = 'FragTok-Planted-55';
    const url = `${u.protocol}//auditor:${SECRET}@${u.host}${u.pathname}?${query}#token=${fragmentSecret}`;
    const runs = [
      await runCliForTest(['audit', '--base-url', url, '--mirror', mirror, '--junit', junit, '--html', html]),
      await runCliForTest(['audit', '--base-url', url, '--mirror', mirror, '--json', '--verbose']),
      await runCliForTest(['snapshot', '--base-url', url, '--mirror', mirror]),
      await runCliForTest(['report', '--mirror', mirror, '--html', reportHtml]),
    ];
    // the base URL's query travels after each endpoint's path, so the audit still runs
    expect(runs[0]!.code, runs[0]!.stderr).toBe(0);
    const doc = JSON.parse(runs[1]!.stdout) as { summary: { baseUrl: string } };
    expect(doc.summary.baseUrl).toBe(
      `${u.origin}${u.pathname}?${NAMES.map((n) => `${n}=***`).join('&')}#***`,
    );
    const everything =
      runs.map((r) => `${r.stdout}\n${r.stderr}`).join('\n') + filesText(junit, html, reportHtml, mirror);
    for (const needle of [...NAMES.map((_n, i) => secretOf(i)), fragmentSecret, SECRET])
      expect(everything, needle).not.toContain(needle);
    // the names stay visible, the auditor's own parameters too
    expect(everything).toContain('client_secret=***');
    expect(everything).toContain('include_proof=true');
  }, 120_000);
});
