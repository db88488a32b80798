/**
 * The CLI as a process (issue 25 "the CI contract"), spawned from the build: a closed stdout or
 * stderr (EPIPE, `reserve-audit audit … | head -3`) ends a command quietly with its own exit code,
 * never a stack trace or exit 1; SIGINT exits 130 and SIGTERM 143 with one stderr line, for
 * `audit` and `snapshot` alike; `serve` stops gracefully with exit 0, also when the signal arrives
 * during the history prefill.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/serve.js';
import { repoRoot } from '../helpers/shared.js';
import {
  findClosedPort,
  type SilentServer,
  spawnCli,
  startSilentServer,
  waitFor,
} from './helpers/spawn-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-process-'));
});

describe('a closed stdout or stderr', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      db: ':memory:',
      contractIdVersion: 'v12',
      seed: 'closed-stdout',
      simulation: false,
      logger: { info() {}, error() {} },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('decode: exit 0, nothing on stderr', async () => {
    const blob = readFileSync(join(repoRoot, 'examples', 'iou.b64'), 'utf8').trim();
    const run = spawnCli(['decode', blob], { closeStdout: true });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output.stderr).toBe('');
  });

  it('verify-contract --batch of many lines: finishes with its own exit code (0) when nobody reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-epipe-'));
    const line = readFileSync(join(repoRoot, 'examples', 'contracts.jsonl'), 'utf8').split('\n')[0];
    // well past a pipe's buffer: the output waits for a reader that went away
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, `${line}\n`.repeat(5000));
    const run = spawnCli(['verify-contract', '--batch', file], { closeStdout: true });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output.stderr).not.toMatch(/EPIPE|\n\s+at /);
  }, 30_000);

  it("audit --json: the verdict's exit code (0), no stack", async () => {
    const run = spawnCli(['audit', '--base-url', `${server.url}/v1/public`, '--json'], { closeStdout: true });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output.stderr).not.toMatch(/EPIPE|\n\s+at /);
  });

  it('audit against an unreachable exchange: exit 2 with stdout closed, and with stderr closed', async () => {
    const base = `http://127.0.0.1:${await findClosedPort()}/v1/public`;
    const out = spawnCli(['audit', '--base-url', base, '--json', '--timeout', '2000'], { closeStdout: true });
    expect(await out.exited).toEqual({ code: 2, signal: null });
    expect(out.output.stderr.trim().split('\n').at(-1)).toMatch(
      /^reserve-audit: could not check: HTTP_CONNECT_FAILED: /,
    );
    expect(out.output.stderr).not.toMatch(/EPIPE|\n\s+at /);
    const err = spawnCli(['audit', '--base-url', base, '--timeout', '2000'], { closeStderr: true });
    expect(await err.exited).toEqual({ code: 2, signal: null });
  });
});

describe('SIGINT and SIGTERM', () => {
  let silent: SilentServer;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(async () => {
    await silent?.close();
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('audit waiting for an answer: %s exits %i with one line', async (signal, code) => {
    const before = silent.requests();
    const run = spawnCli(['audit', '--base-url', silent.base, '--timeout', '60000', '--json']);
    await waitFor(() => silent.requests() > before, 15_000, 'the first request');
    run.child.kill(signal);
    expect(await run.exited).toEqual({ code, signal: null });
    expect(run.output.stdout).toBe('');
    expect(run.output.stderr.trim().split('\n').at(-1)).toBe(`reserve-audit: interrupted (${signal})`);
    expect(run.output.stderr).not.toMatch(/\n\s+at /);
  });

  it('snapshot --every: SIGTERM exits 143', async () => {
    const before = silent.requests();
    const run = spawnCli([
      'snapshot',
      '--base-url',
      silent.base,
      '--mirror',
      join(dir, 'mirror.db'),
      '--every',
      '1s',
      '--timeout',
      '60000',
    ]);
    await waitFor(() => silent.requests() > before, 15_000, 'the first request');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(run.output.stderr.trim().split('\n').at(-1)).toBe('reserve-audit: interrupted (SIGTERM)');
  });

  it('serve: SIGTERM during the history prefill stops it gracefully, exit 0', async () => {
    const db = join(dir, 'server.db');
    // about 7,000 prefilled swaps: seconds of synchronous work after the ledger file is created
    const run = spawnCli(['serve', '--port', '0', '--db', db, '--history', '5d', '--seed', 'prefill']);
    await waitFor(() => existsSync(db), 15_000, 'the ledger file');
    run.child.kill('SIGTERM');
    const atSignal = run.output.stderr;
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(atSignal).not.toContain('serving'); // the signal did arrive during the prefill
    expect(run.output.stderr).toMatch(
      /prefilled history: \d+ swaps[^\n]*\n(?:.*\n)*reserve-audit: SIGTERM, shutting down\nreserve-audit: stopped\n$/,
    );
  }, 60_000);

  it('serve: SIGINT while serving stops it gracefully, exit 0', async () => {
    const run = spawnCli(['serve', '--port', '0', '--db', ':memory:']);
    await waitFor(() => run.output.stderr.includes('serving http://'), 15_000, 'the serving line');
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output.stderr).toMatch(/SIGINT, shutting down\nreserve-audit: stopped\n$/);
  });
});
