/**
 * Runs the shell examples of the documentation against the built CLI (the convention is described at
 * the top of examples.test.ts). The examples of README.md and examples/README.md — the front door —
 * run in the default suite (test/docs/examples.test.ts); those of docs/ run in the slow suite
 * (test/slow/docs-examples.test.ts, `npm run test:slow`), which CI runs too.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, sharedDarsDir } from '../helpers/shared.js';
import {
  type DocCommand,
  firstOutputLine,
  listDocFiles,
  matchesExpectedLine,
  parseDocCommands,
  readDoc,
} from './doc-examples.js';

const COMMAND_TIMEOUT_MS = 90_000;
const SERVER_START_TIMEOUT_MS = 60_000;

const darsDir = sharedDarsDir();
const hasCurl = spawnSync('curl', ['--version']).status === 0;

/** The documents whose examples the default suite runs; every other document's run in the slow suite. */
export const isFrontDoorDoc = (file: string): boolean =>
  file === 'README.md' || file === 'examples/README.md';

let binDir = '';
const tally = { run: [] as string[], skipped: [] as string[] };

interface FileSession {
  dir: string;
  /** documented port → the port the background server really got */
  readonly ports: Map<string, string>;
  readonly servers: ChildProcess[];
}

function rewritePorts(text: string, ports: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [doc, real] of ports) out = out.split(`127.0.0.1:${doc}`).join(`127.0.0.1:${real}`);
  return out;
}

function shellCommand(cmd: DocCommand, session: FileSession): string {
  return rewritePorts(cmd.command, session.ports).replace(
    /(^|[\s;&|(])npx reserve-audit\b/g,
    '$1reserve-audit',
  );
}

function commandEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: '1', PATH: `${binDir}:${process.env.PATH ?? ''}` };
}

function runCommand(
  cmd: DocCommand,
  session: FileSession,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', shellCommand(cmd, session)], {
      cwd: session.dir,
      env: commandEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

async function startBackground(cmd: DocCommand, session: FileSession): Promise<string> {
  const docPort = /--port\s+(\d+)/.exec(cmd.command)?.[1];
  const line = shellCommand(cmd, session).replace(/--port\s+\d+/, '--port 0');
  const child = spawn('bash', ['-c', `exec ${line}`], {
    cwd: session.dir,
    env: commandEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  session.servers.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  for (;;) {
    const m = /serving http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
    if (m !== null) {
      if (docPort !== undefined) session.ports.set(docPort, m[1] ?? '');
      return stderr;
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`background command did not start serving (exit ${child.exitCode}):\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopServers(session: FileSession): Promise<void> {
  await Promise.all(
    session.servers.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.on('exit', () => done());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
}

function label(cmd: DocCommand): string {
  const text = cmd.command.length > 100 ? `${cmd.command.slice(0, 99)}…` : cmd.command;
  return `${cmd.file}:${cmd.line} $ ${text}${cmd.background ? ' &' : ''}`;
}

/** Runs one file's commands in order in a fresh directory; returns what went wrong, one entry per command. */
async function runFileExamples(commands: readonly DocCommand[]): Promise<string[]> {
  const failures: string[] = [];
  const session: FileSession = {
    dir: mkdtempSync(join(tmpdir(), 'docs-examples-')),
    ports: new Map(),
    servers: [],
  };
  try {
    symlinkSync(join(repoRoot, 'examples'), join(session.dir, 'examples'));
    symlinkSync(join(repoRoot, 'fixtures'), join(session.dir, 'fixtures'));
    if (darsDir !== null) {
      for (const dar of readdirSync(darsDir).filter((n) => n.endsWith('.dar'))) {
        symlinkSync(join(darsDir, dar), join(session.dir, dar));
      }
    }
    for (const cmd of commands) {
      const skipReason =
        cmd.skip ??
        (cmd.needsDars && darsDir === null ? 'needs the Splice DARs (absent here)' : null) ??
        (!hasCurl && /^curl\b/.test(cmd.command) ? 'curl is not installed here' : null);
      if (skipReason !== null) {
        tally.skipped.push(`${label(cmd)} — ${skipReason}`);
        continue;
      }
      tally.run.push(label(cmd));
      if (cmd.background) {
        try {
          const stderr = await startBackground(cmd, session);
          const first = firstOutputLine('', stderr);
          const expected = cmd.expected === null ? null : rewritePorts(cmd.expected, session.ports);
          if (expected !== null && !matchesExpectedLine(expected, first)) {
            failures.push(
              `${label(cmd)}\n  first line expected: ${expected}\n  got:                 ${first}`,
            );
          }
        } catch (e) {
          failures.push(`${label(cmd)}\n  ${e instanceof Error ? e.message : String(e)}`);
        }
        continue;
      }
      const r = await runCommand(cmd, session);
      const problems: string[] = [];
      if (r.code !== cmd.exitCode) problems.push(`exit code expected ${cmd.exitCode}, got ${r.code}`);
      const first = firstOutputLine(r.stdout, r.stderr);
      const expected = cmd.expected === null ? null : rewritePorts(cmd.expected, session.ports);
      if (expected !== null && !matchesExpectedLine(expected, first)) {
        problems.push(`first line expected: ${expected}\n  got:                 ${first}`);
      }
      if (problems.length > 0) {
        failures.push(
          `${label(cmd)}\n  ${problems.join('\n  ')}\n  stdout: ${r.stdout.slice(0, 1500)}\n  stderr: ${r.stderr.slice(0, 1500)}`,
        );
      }
    }
  } finally {
    await stopServers(session);
    rmSync(session.dir, { recursive: true, force: true });
  }
  return failures;
}

/**
 * One test per markdown file that `select` picks (the files run side by side, each file's commands in
 * order), with the launcher set up before them and the tally of run and skipped commands printed after.
 */
export function describeExampleRuns(select: (file: string) => boolean): void {
  const parsed = listDocFiles(repoRoot)
    .filter(select)
    .map((file) => ({ file, ...parseDocCommands(file, readDoc(repoRoot, file)) }));
  beforeAll(() => {
    // What users run: bin/reserve-audit.js → dist/bundle/cli.js, built once for the whole suite by the
    // globalSetup (test/setup/build-dist.ts), so this file never rebuilds dist/ under another test's feet.
    if (!existsSync(join(repoRoot, 'dist', 'bundle', 'cli.js'))) {
      throw new Error('dist/bundle/cli.js is missing: run npm run build (the suite globalSetup does)');
    }
    binDir = mkdtempSync(join(tmpdir(), 'docs-bin-'));
    const launcher = join(binDir, 'reserve-audit');
    writeFileSync(
      launcher,
      `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'bin', 'reserve-audit.js')}" "$@"\n`,
    );
    chmodSync(launcher, 0o755);
  }, 180_000);

  afterAll(() => {
    if (binDir !== '') rmSync(binDir, { recursive: true, force: true });
    const list = (xs: readonly string[]): string => xs.map((x) => `\n  ${x}`).join('');
    console.log(`docs examples: ${tally.run.length} commands run${list(tally.run)}`);
    console.log(`docs examples: ${tally.skipped.length} commands skipped${list(tally.skipped)}`);
  });

  describe.concurrent('every shell example runs as printed (exit code and first line)', () => {
    it('has documents to run', () => {
      expect(parsed.filter((p) => p.commands.length > 0).length).toBeGreaterThan(0);
    });
    for (const { file, commands } of parsed) {
      if (commands.length === 0) continue;
      it(`${file} (${commands.length} commands)`, async () => {
        expect(await runFileExamples(commands)).toEqual([]);
      }, 600_000);
    }
  });
}
