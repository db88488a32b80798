/** Runs the CLI in-process with captured streams (tests only). */
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
  const code = await runCli(argv, {
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
