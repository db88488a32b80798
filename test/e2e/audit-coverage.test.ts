/**
 * Every report of `audit` says what the run did not check, next to the verdict: the human text,
 * `summary.coverage` in JSON (also recorded in the mirror), the JUnit `<properties>` and the HTML
 * report of `report --html`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertWellFormedXml } from '../audit/xml.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

interface Coverage {
  quotes: { checked: boolean; probes: number; text: string };
  history: { checked: boolean; mirror: boolean; earlierSnapshots: number; text: string };
  types: { source: string; text: string };
}

let s: AuditServer;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'coverage' });
  dir = mkdtempSync(join(tmpdir(), 'audit-coverage-'));
}, 30_000);
afterAll(async () => {
  await s.close();
});

describe('the coverage of a run is reported next to the verdict', () => {
  it('a bare audit passes, and says quotes were not probed and staleness not checked', async () => {
    const junit = join(dir, 'bare.xml');
    const text = await runCliForTest(['audit', '--base-url', s.base, '--junit', junit]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^PASSED /);
    // right under the verdict
    expect(lines.slice(1, 5)).toEqual([
      '  assurance: id-verified (no ledger API read) — the contract ID recomputes from the blob: the pair is consistent; not proven that the contract was created on the ledger or is still active',
      '  quotes: not probed (--probe-quotes), a tampered quote would pass',
      '  history: no mirror, staleness not checked (a frozen, genuine but old state would pass)',
      "  types: bundled type file (the reference server's templates; use --types/--dar for another exchange)",
    ]);
    // every file written is said on stderr, with what it holds
    expect(text.stderr).toMatch(/wrote \S*bare\.xml \(\d+ checks, \d+ bytes\)/);
    const withHtml = await runCliForTest(['audit', '--base-url', s.base, '--html', join(dir, 'bare.html')]);
    expect(withHtml.code).toBe(0);
    expect(withHtml.stderr).toMatch(/wrote \S*bare\.html \(\d+ pools, \d+ bytes\)/);
    const xml = readFileSync(junit, 'utf8');
    assertWellFormedXml(xml);
    expect(xml).toContain(
      '<property name="coverage.quotes" value="quotes: not probed (--probe-quotes), a tampered quote would pass"/>',
    );
    expect(xml).toContain(
      '<property name="coverage.history" value="history: no mirror, staleness not checked',
    );
    const json = await runCliForTest(['audit', '--base-url', s.base, '--json']);
    const c = (JSON.parse(json.stdout) as { summary: { coverage: Coverage } }).summary.coverage;
    expect(c.quotes).toMatchObject({ checked: false, probes: 0 });
    expect(c.history).toMatchObject({ checked: false, mirror: false });
    expect(c.types.source).toBe('bundled');
  }, 60_000);

  it('a base URL without /v1/public: could not check, and a hint names the URL to try', async () => {
    const origin = s.base.replace(/\/v1\/public\/?$/, '');
    const r = await runCliForTest(['audit', '--base-url', origin]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`hint: ${origin}`);
    expect(r.stderr).toContain(`try --base-url ${origin}/v1/public`);
    // and none when the path is right (the audit passes)
    expect((await runCliForTest(['audit', '--base-url', s.base])).stderr).not.toContain('hint:');
  }, 60_000);

  it('with a mirror and probe quotes: probes counted, earlier snapshots counted, shown in the HTML report', async () => {
    const mirror = join(dir, 'm.db');
    const html = join(dir, 'r.html');
    const run = async (): Promise<Coverage> => {
      const r = await runCliForTest([
        'audit',
        '--base-url',
        s.base,
        '--json',
        '--mirror',
        mirror,
        '--probe-quotes',
      ]);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { summary: { coverage: Coverage } }).summary.coverage;
    };
    const first = await run();
    expect(first.quotes.checked).toBe(true);
    expect(first.quotes.probes).toBeGreaterThan(0);
    expect(first.history).toMatchObject({ checked: false, mirror: true, earlierSnapshots: 0 });
    expect(first.history.text).toBe('history: first snapshot in the mirror, staleness not checked yet');
    const second = await run();
    expect(second.history).toEqual({
      checked: true,
      mirror: true,
      earlierSnapshots: 1,
      text: 'history: 1 earlier snapshot',
    });
    const rep = await runCliForTest(['report', '--mirror', mirror, '--html', html]);
    expect(rep.code, rep.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<li>history: 1 earlier snapshot</li>');
    expect(page).toContain(`<li>${second.quotes.text}</li>`);
  }, 60_000);
});
