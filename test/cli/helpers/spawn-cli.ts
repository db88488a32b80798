/**
 * The built CLI as a user runs it (bin/reserve-audit.js → dist/, built by the suite's globalSetup),
 * spawned with its streams under the test's control; plus a port nothing listens on and an HTTP
 * server that never answers (tests only).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared.js';

export interface SpawnedCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** everything written to stdout/stderr so far (empty for a stream the test closed) */
  readonly output: { stdout: string; stderr: string };
  /** the exit code, or the signal that killed the process */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCli(
  argv: readonly string[],
  o: { cwd?: string; closeStdout?: boolean; closeStderr?: boolean } = {},
): SpawnedCli {
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'reserve-audit.js'), ...argv], {
    cwd: o.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  // the reader goes away before the CLI writes a byte: its next write fails with EPIPE
  if (o.closeStdout === true) child.stdout.destroy();
  else child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
  if (o.closeStderr === true) child.stderr.destroy();
  else child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output, exited };
}

/** Resolves once `test()` holds (polled every 20 ms), or rejects after `ms`. */
export async function waitFor(test: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function findClosedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface SilentServer {
  /** origin + /v1/public */
  readonly base: string;
  /** requests received (and held) so far */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** An HTTP server that accepts every request and never answers it. */
export async function startSilentServer(): Promise<SilentServer> {
  const held: ServerResponse[] = [];
  const server: Server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}/v1/public`,
    requests: () => held.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
