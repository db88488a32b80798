/**
 * A hostile exchange attacks the auditor itself (issue 30; docs/threat-model.md "Attacks on the
 * auditor"): terminal escapes and a bidirectional override in its token text reach no human
 * output raw and are named by the IDENTIFIER_CONTROL_CHARACTERS warning; JSON nested millions deep
 * ends the audit as could-not-check (exit 2) with HTTP_JSON_TOO_COMPLEX instead of gigabytes of
 * parsing; malformed entries are printed by the text report and listed once each in JUnit.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepJson, HOSTILE_TEXT, hostileTokenText, malformedEntries } from '../helpers/hostile-exchange.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters no human output may hold raw
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let s: AuditServer;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'hostile-auditor' });
  dir = mkdtempSync(join(tmpdir(), 'audit-hostile-'));
}, 30_000);
afterAll(async () => {
  await s.close();
});

describe('exchange text with terminal escapes and bidi overrides', () => {
  it('reaches no text, stderr, JUnit or HTML output raw, and is named by a warning', async () => {
    s.setTamper(hostileTokenText);
    try {
      const junit = join(dir, 'esc.xml');
      const html = join(dir, 'esc.html');
      const text = await runCliForTest([
        'audit',
        '--base-url',
        s.base,
        '--verbose',
        '--junit',
        junit,
        '--html',
        html,
      ]);
      const json = await runCliForTest(['audit', '--base-url', s.base, '--json']);
      for (const [name, out] of [
        ['stdout', text.stdout],
        ['stderr', text.stderr + json.stderr],
        ['junit', readFileSync(junit, 'utf8')],
        ['html', readFileSync(html, 'utf8').replace(/<script[\s\S]*?<\/script>/g, '')],
      ] as const)
        expect(RAW_CONTROL.test(out), name).toBe(false);
      expect(text.stdout).toContain('IDENTIFIER_CONTROL_CHARACTERS');
      expect(text.stdout).toContain('\\u001b]0;pwned\\u0007');
      // JSON stays faithful: the exact string, escaped by JSON itself
      const doc = JSON.parse(json.stdout) as {
        summary: { exitCode: number };
        findings: { code: string; severity: string; evidence: { got?: unknown } }[];
      };
      const named = doc.findings.filter((f) => f.code === 'IDENTIFIER_CONTROL_CHARACTERS');
      expect(named.length).toBeGreaterThan(0);
      expect(named.every((f) => f.severity === 'warning')).toBe(true);
      expect(named.some((f) => String(f.evidence.got).endsWith(HOSTILE_TEXT))).toBe(true);
      expect(doc.summary.exitCode).toBe(text.code);
    } finally {
      s.setTamper(undefined);
    }
  }, 60_000);
});

describe('JSON nested far past the bound', () => {
  it('ends the audit as could-not-check (exit 2) naming HTTP_JSON_TOO_COMPLEX, never 1', async () => {
    s.setTamper(deepJson(1_000_000));
    try {
      const t0 = Date.now();
      const r = await runCliForTest(['audit', '--base-url', s.base, '--timeout', '20000']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('HTTP_JSON_TOO_COMPLEX');
      expect(r.stderr).toMatch(/expected a JSON nesting depth of at most 64/);
      // generous: a bounded scan per body, not a retry budget or a parse of a million arrays
      expect(Date.now() - t0).toBeLessThan(20_000);
    } finally {
      s.setTamper(undefined);
    }
  }, 60_000);
});

describe('malformed entries', () => {
  it('are each printed by the text report and listed once in JUnit', async () => {
    s.setTamper(malformedEntries(40));
    try {
      const junit = join(dir, 'malformed.xml');
      const r = await runCliForTest(['audit', '--base-url', s.base, '--junit', junit]);
      expect(r.code).toBe(1);
      const xml = readFileSync(junit, 'utf8');
      for (let i = 0; i < 40; i++) {
        expect(r.stdout).toContain(`/pools/proof pool bad${i} is malformed`);
        expect(r.stdout).toContain(`/pools/state pool bad${i} is malformed`);
        expect(xml.split(`/pools/proof pool bad${i} is malformed`).length - 1).toBe(1);
      }
    } finally {
      s.setTamper(undefined);
    }
  }, 60_000);
});
