/**
 * Runs the CLI in-process with captured streams (tests only). `audit` and `snapshot` get
 * `--max-rps 1000` unless the test gives its own --max-rps: they talk to a server in this process,
 * and the default pacing (50 requests/s, src/io/http/pacer.ts) made every audit wait about a second
 * for nothing. The pacing itself is tested in test/http/pacer.test.ts; the documentation's
 * examples and the spawned-CLI tests run with the defaults.
 */
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCliForTest(
  argv: readonly string[],
  opts: { stdin?: string | Uint8Array; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.on('data', (c: Buffer) => errChunks.push(c));
  const paced =
    (argv[0] === 'audit' || argv[0] === 'snapshot') && !argv.some((a) => a.startsWith('--max-rps'))
      ? [...argv, '--max-rps', '1000']
      : argv;
  const code = await runCli(paced, {
    stdout: out,
    stderr: err,
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    cwd: opts.cwd ?? process.cwd(),
    env: { NO_COLOR: '1', ...(opts.env ?? {}) },
  });
  return {
    code,
    stdout: Buffer.concat(chunks).toString('utf8'),
    stderr: Buffer.concat(errChunks).toString('utf8'),
  };
}
