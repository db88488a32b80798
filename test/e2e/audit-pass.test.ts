/**
 * The audit of the bundled reference server passes (exit 0) for each contract-ID version v10,
 * v11, v12: real simulated ledger on SQLite :memory:, served on 127.0.0.1:0, audited through the
 * CLI (human, --json, --junit, --mirror, --probe-quotes).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { assertWellFormedXml } from '../audit/xml.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

const servers: AuditServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe.each(['v10', 'v11', 'v12'] as ContractIdVersion[])('audit of the bundled server (%s)', (version) => {
  it('passes every check with exit 0, in JSON and JUnit, twice against a mirror', async () => {
    const s = await startAuditServer({ version });
    servers.push(s);
    const dir = mkdtempSync(join(tmpdir(), 'audit-pass-'));
    const mirror = join(dir, 'm.sqlite');
    const junit = join(dir, 'junit.xml');
    const r = await runCliForTest([
      'audit',
      '--base-url',
      s.base,
      '--json',
      '--junit',
      junit,
      '--mirror',
      mirror,
      '--probe-quotes',
    ]);
    expect(r.stderr).not.toContain('could not check:');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      summary: {
        outcome: string;
        pools: number;
        proofsProven: number;
        checks: { fail: number; couldNotCheck: number };
      };
      findings: unknown[];
      checks: { name: string; status: string }[];
    };
    expect(doc.summary.outcome).toBe('passed');
    expect(doc.summary.pools).toBeGreaterThan(3);
    expect(doc.summary.proofsProven).toBe(doc.summary.pools);
    expect(doc.findings).toEqual([]);
    for (const name of [
      'proof.contract-id',
      'proof.fields',
      'state.reserves',
      'state.price',
      'state.tvl',
      'market.ticker',
      'market.orderbook',
      'volume.fees-add-up',
      'tokens.listed',
    ])
      expect(
        doc.checks.some((c) => c.name === name && c.status === 'pass'),
        name,
      ).toBe(true);
    expect(doc.checks.some((c) => c.name.startsWith('quote.') && c.status === 'pass')).toBe(true);
    const xml = readFileSync(junit, 'utf8');
    assertWellFormedXml(xml);
    expect(xml).toContain('<testsuite name="proof"');
    expect(xml).not.toContain('<failure');
    // second run: history against the first
    const again = await runCliForTest(['audit', '--base-url', s.base, '--mirror', mirror]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^PASSED {2}http:\/\/127\.0\.0\.1:\d+\/v1\/public {2}pools \d+ \(id-verified \d+\)/,
    );
    expect(again.stdout).not.toContain('history.time  skipped');
  }, 60_000);
});
