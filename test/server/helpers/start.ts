/** Starts createApp on 127.0.0.1:0 for a test and returns its base URL and a closer. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { type App, type AppOptions, createApp, type Logger } from '../../../src/server/app.js';

export interface TestServer {
  readonly app: App;
  readonly server: Server;
  readonly origin: string;
  /** origin + /v1/public */
  readonly base: string;
  /** errors the top-level guard logged (must stay empty: bad input never reaches it) */
  readonly loggedErrors: unknown[];
  close(): Promise<void>;
}

export async function startTestServer(opts: AppOptions): Promise<TestServer> {
  const loggedErrors: unknown[] = [];
  const logger: Logger = {
    info: () => {},
    error: (msg, err) => {
      loggedErrors.push(err ?? msg);
    },
  };
  const app = createApp({ logger, ...opts });
  const server = createServer(app.handler);
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    app,
    server,
    origin,
    base: `${origin}/v1/public`,
    loggedErrors,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  return getJson(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The CLI run from its TypeScript source (tsx) in a child process, in the repository root (stdout and stderr piped). */
export function spawnSourceCli(args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('./src/cli/main.ts').then((m) => m.main(process.argv.slice(1)))",
      ...args,
    ],
    { cwd: new URL('../../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}
