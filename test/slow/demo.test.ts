/**
 * The main job (`npm start` = `reserve-audit demo`), spawned as a user runs it, on a short history:
 * the reference server, snapshots each followed by a `mirror follow` round of its JSON Ledger API,
 * then the audit — PASSED with every pool ledger-confirmed, the history checks over every followed
 * contract, exit 0, and `--json` a summary saying the same.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../cli/helpers/spawn-cli.js';

describe('reserve-audit demo (npm start)', () => {
  it('serves, snapshots, follows the ledger and audits: PASSED, ledger-confirmed, every followed contract judged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-'));
    const run = spawnCli(['demo', '--history-hours', '1', '--snapshots', '2', '--mirror', join(dir, 'm.db')]);
    const { code } = await run.exited;
    const { stdout, stderr } = run.output;
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      /demo: snapshot 2\/2: 8 pools, [0-9]+ new contracts → .*; ledger followed to offset [0-9]+ \(chains passed\)/,
    );
    expect(stdout).toMatch(/^PASSED .* pools 8 \(ledger-confirmed 8\)/m);
    const followed =
      /followed ledger: ([0-9]+) contracts of 8 pools, every reserve contract up to offset ([0-9]+)/.exec(
        stdout,
      );
    expect(followed, stdout).not.toBeNull();
    expect(Number(followed![1])).toBeGreaterThan(8);
    expect(stdout).toContain('history: 2 earlier snapshots');

    const json = spawnCli([
      'demo',
      '--history-hours',
      '1',
      '--snapshots',
      '1',
      '--mirror',
      join(dir, 'j.db'),
      '--json',
    ]);
    expect((await json.exited).code, json.output.stderr).toBe(0);
    const summary = JSON.parse(json.output.stdout) as {
      outcome: string;
      exitCode: number;
      coverage: { followed?: { checked: boolean; contracts: number } };
    };
    expect(summary).toMatchObject({ outcome: 'passed', exitCode: 0 });
    expect(summary.coverage.followed).toMatchObject({ checked: true });
    expect(summary.coverage.followed!.contracts).toBeGreaterThan(8);
  }, 180_000);
});
