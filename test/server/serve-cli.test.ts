/**
 * `reserve-audit serve`: spawned end to end (listening URL on stderr, real responses, graceful
 * SIGTERM shutdown with exit code 0), and option validation in-process (exit code 2).
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_DURATION, parseDurationMs } from '../../src/cli/options.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { getJson, spawnSourceCli } from './helpers/start.js';

describe('reserve-audit serve', () => {
  it('serves on an ephemeral port, prefills history, and stops cleanly on SIGTERM', async () => {
    const child = spawnSourceCli([
      'serve',
      '--port',
      '0',
      '--seed',
      'cli-test',
      '--history',
      '2h',
      '--history-rate',
      '2',
      '--simulation',
      '--contract-id-version',
      'v11',
      '--db',
      ':memory:',
      '--exchange-name',
      'cantex',
    ]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!/serving (http:\/\/127\.0\.0\.1:\d+)\/v1\/public/.test(stderr)) {
        if (Date.now() > deadline) throw new Error(`no listening line: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const origin = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] as string;
      expect(stderr).toMatch(/prefilled history: \d+ swaps executed/);
      // the prefill's counts are for a terminal: nothing of them on a pipe
      expect(stderr).not.toContain('prefilling history');
      const proof = await getJson(`${origin}/v1/public/pools/proof`);
      expect(proof.status).toBe(200);
      expect(
        (proof.body as { data: { pools: { reserve_contract: { contract_id: string } }[] } }).data.pools[0]
          ?.reserve_contract.contract_id,
      ).toMatch(/^00[0-9a-f]{64}ca11/);
      const markets = (await getJson(`${origin}/v1/public/markets/info`)).body as {
        data: { markets: { symbol: string; source: string }[] };
      };
      expect(new Set(markets.data.markets.map((m) => m.source))).toEqual(new Set(['cantex', 'external']));
      const vol = await getJson(`${origin}/v1/public/volume`);
      expect(Number((vol.body as { data: { swap_count: string } }).data.swap_count)).toBeGreaterThan(0);
      const sim = await getJson(`${origin}/v1/sim/transfer`, { method: 'POST', body: '{}' });
      expect([sim.status, sim.body]).toEqual([400, { error: 'missing sender' }]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/SIGTERM, shutting down/);
    expect(stderr).toMatch(/stopped/);
  }, 40_000);

  it.each([
    [['serve', '--port', '70000'], /"--port" expected an integer 0\.\.65535, got 70000/],
    [['serve', '--history', '7 days'], /"--history" expected a duration like 7d, 12h or 30m, got "7 days"/],
    [['serve', '--traffic', '-1'], /"--traffic" expected a number 0\.\.60000 \(swaps per minute\), got -1/],
    [['serve', '--rate-limit', '0'], /"--rate-limit" expected a positive number, got 0/],
    [['serve', '--contract-id-version', 'v9'], /Invalid values|Choices/],
    [['serve', '--exchange-name', 'external'], /"--exchange-name" expected 1-64 letters.*got "external"/],
    [['serve', '--exchange-name', 'two words'], /"--exchange-name" expected 1-64 letters.*got "two words"/],
  ])('rejects %j with exit code 2', async (argv, message) => {
    const r = await runCliForTest(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('parses durations', () => {
    expect([
      parseDurationMs('7d', HISTORY_DURATION),
      parseDurationMs('12h', HISTORY_DURATION),
      parseDurationMs('30m', HISTORY_DURATION),
      parseDurationMs('90s', HISTORY_DURATION),
      parseDurationMs('0', HISTORY_DURATION),
    ]).toEqual([604_800_000, 43_200_000, 1_800_000, 90_000, 0]);
    expect([
      parseDurationMs('7', HISTORY_DURATION),
      parseDurationMs('-1d', HISTORY_DURATION),
      parseDurationMs('1y', HISTORY_DURATION),
      parseDurationMs('400d', HISTORY_DURATION),
    ]).toEqual([null, null, null, null]);
  });
});

describe('reserve-audit serve --pools on an existing ledger', () => {
  it('says that --pools is ignored instead of ignoring it silently', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'serve-pools-'));
    const db = join(dir, 'ledger.db');
    /** serve until it listens, then SIGTERM; its stderr */
    const serveOnce = async (extra: readonly string[]): Promise<string> => {
      const child = spawnSourceCli(['serve', '--port', '0', '--history', '0s', '--db', db, ...extra]);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const deadline = Date.now() + 20_000;
      while (!/serving http/.test(stderr)) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`no listening line: ${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return stderr;
    };
    try {
      // a fresh database: --pools seeds it, nothing to say
      expect(await serveOnce(['--pools', '2'])).not.toContain('ignored');
      // the same database again: the ledger exists, --pools cannot apply
      expect(await serveOnce(['--pools', '5'])).toMatch(
        /--pools 5 ignored: \S+ledger\.db already holds a ledger/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('reserve-audit --version', () => {
  it("prints the package's version and exits 0", async () => {
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const { execFileSync } = await import('node:child_process');
    // the built CLI (globalSetup builds dist/): yargs prints the version on the process's stdout
    const out = execFileSync(
      process.execPath,
      [new URL('../../bin/reserve-audit.js', import.meta.url).pathname, '--version'],
      { encoding: 'utf8' },
    );
    expect(out.trim()).toBe(pkg.version);
  });
});
