/**
 * `reserve-audit snapshot` end to end (in-process CLI, reference server on 127.0.0.1:0, temp
 * mirror): JSON lines on stdout, plain progress on stderr, new contracts verified and recorded,
 * a swap between snapshots shows up as a new contract, exit 2 when the API is unreachable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { INTERVAL_DURATION, parseDurationMs } from '../../src/cli/options.js';
import { countContracts, openMirror, readPoolHistory } from '../../src/io/store/index.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer();
  dir = mkdtempSync(join(tmpdir(), 'ra-snapcmd-'));
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reserve-audit snapshot', () => {
  it('records, verifies, and prints one JSON line per snapshot', async () => {
    const mirrorPath = join(dir, 'a.db');
    const first = await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', mirrorPath]);
    expect(first.code).toBe(0);
    const line = JSON.parse(first.stdout.trim()) as Record<string, unknown>;
    const pools = server.exchange.pools().filter((p) => p.active).length;
    expect(line).toMatchObject({
      snapshot: 1,
      pools,
      newContracts: pools,
      verified: pools,
      mismatch: 0,
      couldNotCheck: 0,
      failedSections: [],
    });
    expect(first.stderr).toMatch(
      new RegExp(`^snapshot 1/1: #1, ${pools} pools, ${pools} new contracts \\(${pools} verified`),
    );
    expect(first.stderr).not.toContain('\x1b['); // not a TTY: no control sequences

    // a swap re-creates one pool's reserve contract
    const cc = server.exchange.cc();
    const r = server.exchange.transfer({
      sender: 'alice::1220aa',
      instrument: cc,
      amount: '100',
      memo: 'USDCx',
    });
    expect(r.status).toBe('executed');
    server.clock.advanceMs(120_000); // past the server's response caches
    const second = await runCliForTest([
      'snapshot',
      '--base-url',
      server.base,
      '--mirror',
      mirrorPath,
      '--count',
      '2',
      '--every',
      '10ms',
    ]);
    expect(second.code).toBe(0);
    const lines = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ snapshot: 2, newContracts: 1, verified: 1 });
    expect(lines[1]).toMatchObject({ snapshot: 3, newContracts: 0 });

    const m = openMirror(mirrorPath, { readonly: true });
    try {
      expect(countContracts(m)).toBe(pools + 1);
      expect(countContracts(m, { status: 'verified' })).toBe(pools + 1);
      const moved = server.exchange.pools().find((p) => p.tokenB.id === 'USDCx' || p.tokenA.id === 'USDCx');
      const history = readPoolHistory(m, moved?.poolId ?? '');
      expect(history.length).toBe(3);
      expect(new Set(history.map((h) => h.contractId)).size).toBe(2);
    } finally {
      m.close();
    }
  });

  it('exit 2 and a one-line reason when the API cannot be reached', async () => {
    const port = new URL(server.base).port;
    const res = await runCliForTest([
      'snapshot',
      '--base-url',
      server.base.replace(`:${port}`, ':1'),
      '--mirror',
      join(dir, 'b.db'),
      '--timeout',
      '2000',
    ]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /snapshot 1\/1: could not check: HTTP_CONNECT_FAILED: could not connect to http:\/\/127\.0\.0\.1:1\/v1\/public\/pools\/proof/,
    );
  });

  it('retention options belong to --every, and --no-retention takes none', async () => {
    const m = join(dir, 'retention.db');
    const cases: [string[], string][] = [
      [['--keep-raw', '1d'], '"--keep-raw" and "--archive-after" expected with --every'],
      [
        ['--every', '1s', '--no-retention', '--archive-after', '30d'],
        '"--archive-after" expected without --no-retention, got both',
      ],
      [['--every', '1s', '--archive-after', '5m'], '"--archive-after" expected'],
    ];
    for (const [extra, message] of cases) {
      const r = await runCliForTest(['snapshot', '--base-url', server.base, '--mirror', m, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('rejects bad options with exit 2', async () => {
    const bad = await runCliForTest([
      'snapshot',
      '--base-url',
      server.base,
      '--mirror',
      join(dir, 'c.db'),
      '--every',
      'soon',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"--every" expected a duration like 30s or 5m, got "soon"');
    expect(parseDurationMs('500ms', INTERVAL_DURATION)).toBe(500);
    expect(parseDurationMs('1.5m', INTERVAL_DURATION)).toBe(90_000);
    expect(parseDurationMs('2', INTERVAL_DURATION)).toBe(2000);
    expect(parseDurationMs('0s', INTERVAL_DURATION)).toBeNull();
    expect(parseDurationMs('-1s', INTERVAL_DURATION)).toBeNull();
  });

  it('on a TTY the progress line is rewritten in place; dimmed unless NO_COLOR', async () => {
    for (const env of [{}, { NO_COLOR: '1' }]) {
      const out = new PassThrough();
      const err = Object.assign(new PassThrough(), { isTTY: true });
      let stderr = '';
      err.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      out.resume();
      const code = await runCli(
        ['snapshot', '--base-url', server.base, '--mirror', join(dir, 'tty.db'), '--timeout', '5000'],
        { stdout: out, stderr: err, stdin: Readable.from([]), cwd: dir, env },
      );
      expect(code).toBe(0);
      expect(stderr).toContain('\r\x1b[2K');
      expect(stderr).toMatch(/snapshot 1\/1: \/pools\/state \(2 requests\)/);
      expect(stderr.includes('\x1b[2m')).toBe(!('NO_COLOR' in env));
      // the summary line replaces the progress line and ends it
      const ESC = String.fromCharCode(27);
      const lastClear = stderr.lastIndexOf(`\r${ESC}[2K`);
      const summary = stderr.slice(lastClear + 5);
      expect(summary).toMatch(/^snapshot 1\/1: #\d+, \d+ pools[^\n]*\n$/);
      expect(summary).not.toContain(ESC);
    }
  });
});
