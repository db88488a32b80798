/**
 * The documentation runs as printed. Reads README.md, docs/**\/*.md and examples/README.md and:
 *  - runs every shell example against the built CLI (`npm run build` first; `reserve-audit` and
 *    `npx reserve-audit` are the launcher bin/reserve-audit.js, as for a user) and checks its exit code and
 *    the first line it prints;
 *  - checks that every relative link points at a file of the repository (and a heading, for `#anchor`s),
 *    that README.md is at most 400 lines, that code snippets import only the package's exports, and that
 *    the example blobs in examples/ are the test vectors they claim to be.
 *
 * The convention of the examples (also explained to readers in docs/cli.md):
 *  - In a ```console, ```sh, ```bash or ```shell block, a line starting with `$ ` is a command; it is run
 *    with bash, in a temporary directory holding links to examples/ and fixtures/, one directory per
 *    markdown file (so a file's commands run in order and share files such as a mirror).
 *  - The first non-empty line under a command is the first line it prints — stdout's, or stderr's when
 *    stdout is empty; `…` stands for any text. No line under a command: the output is not checked.
 *  - A trailing comment sets what is expected: `# exit N` the exit code (default 0); `# not run: reason`
 *    skips the command (counted and printed); `# needs the Splice DARs` runs it only when the DARs are
 *    present (they may not be redistributed), with links to them in the directory. Other comments are
 *    ignored. A `curl` command is skipped (and counted) where curl is not installed.
 *  - A trailing `&` starts a server in the background: `--port N` becomes `--port 0`, the test waits for
 *    its "serving http://127.0.0.1:P" line and replaces `127.0.0.1:N` by `127.0.0.1:P` in the file's
 *    later commands and expected lines; the server is stopped after the file's last command.
 *  - Every shell block must contain a command, and a `$ ` line in any other block is an error, so no
 *    command in the docs escapes the test.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, sharedDarsDir } from '../helpers/shared.js';
import {
  type DocCommand,
  firstOutputLine,
  listDocFiles,
  listHeadingAnchors,
  listRelativeLinks,
  listSnippetImports,
  matchesExpectedLine,
  parseDocCommands,
  parseFences,
  readDoc,
} from './doc-examples.js';

const COMMAND_TIMEOUT_MS = 90_000;
const SERVER_START_TIMEOUT_MS = 60_000;

const docFiles = listDocFiles(repoRoot);
const parsed = docFiles.map((file) => ({ file, ...parseDocCommands(file, readDoc(repoRoot, file)) }));
const darsDir = sharedDarsDir();
const hasCurl = spawnSync('curl', ['--version']).status === 0;

let binDir = '';
const tally = { run: [] as string[], skipped: [] as string[] };

beforeAll(() => {
  // What users run: bin/reserve-audit.js → dist/cli/main.js, built once for the whole suite by the
  // globalSetup (test/setup/build-dist.ts), so this file never rebuilds dist/ under another test's feet.
  if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/cli/main.js is missing: run npm run build (the suite globalSetup does)');
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

describe('documentation follows the example convention', () => {
  it('has no shell block without commands and no "$ " line outside a shell block', () => {
    const problems = parsed.flatMap((p) => p.problems).map((p) => `${p.file}:${p.line} ${p.message}`);
    expect(problems).toEqual([]);
  });

  it('has commands to run', () => {
    const runnable = parsed.flatMap((p) => p.commands).filter((c) => c.skip === null);
    expect(runnable.length).toBeGreaterThan(30);
  });
});

// One test per markdown file; the files run side by side, each file's commands in order.
describe.concurrent('every shell example runs as printed (exit code and first line)', () => {
  for (const { file, commands } of parsed) {
    if (commands.length === 0) continue;
    it(`${file} (${commands.length} commands)`, async () => {
      expect(await runFileExamples(commands)).toEqual([]);
    }, 600_000);
  }
});

describe('links and size', () => {
  it('README.md is a front door of at most 400 lines', () => {
    const lines = readDoc(repoRoot, 'README.md').split('\n');
    expect(lines.length - (lines.at(-1) === '' ? 1 : 0)).toBeLessThanOrEqual(400);
  });

  it('every relative link points at a file of the repository (and at a heading, for #anchors)', () => {
    const broken: string[] = [];
    for (const file of docFiles) {
      for (const link of listRelativeLinks(file, readDoc(repoRoot, file))) {
        const [path = '', anchor] = link.target.split('#');
        const target =
          path === '' ? join(repoRoot, file) : resolve(repoRoot, dirname(file), decodeURIComponent(path));
        const where = `${link.file}:${link.line} → ${link.target}`;
        if (!target.startsWith(`${repoRoot}/`) && target !== repoRoot)
          broken.push(`${where} (outside the repository)`);
        else if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && target.endsWith('.md')) {
          if (!listHeadingAnchors(readFileSync(target, 'utf8')).has(anchor))
            broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('library snippets use the package exports only', () => {
  const modules: Record<string, string> = {
    'reserve-audit': '../../src/index.js',
    'reserve-audit/core': '../../src/core/index.js',
    'reserve-audit/server': '../../src/server/app.js',
  };
  const snippets = [
    ...docFiles.flatMap((file) =>
      parseFences(file, readDoc(repoRoot, file))
        .filter((f) => ['ts', 'js', 'typescript', 'javascript', 'mjs'].includes(f.lang))
        .map((f) => ({ where: `${file}:${f.line}`, code: f.lines.join('\n') })),
    ),
    ...readdirSync(join(repoRoot, 'examples'))
      .filter((n) => /\.(m?js|ts)$/.test(n))
      .map((n) => ({ where: `examples/${n}`, code: readFileSync(join(repoRoot, 'examples', n), 'utf8') })),
  ];

  it('imports only reserve-audit, reserve-audit/core, reserve-audit/server and node:*, and names they export', async () => {
    expect(snippets.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const s of snippets) {
      for (const imp of listSnippetImports(s.code)) {
        if (imp.specifier.startsWith('node:')) continue;
        const path = modules[imp.specifier];
        if (path === undefined) {
          wrong.push(`${s.where}: imports '${imp.specifier}' (not an export of the package)`);
          continue;
        }
        const mod = (await import(path)) as Record<string, unknown>;
        for (const name of imp.names) {
          if (!(name in mod)) wrong.push(`${s.where}: '${imp.specifier}' does not export ${name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reserve-audit exports every value reserve-audit/core exports (the same objects)', async () => {
    const root = (await import(modules['reserve-audit'] as string)) as Record<string, unknown>;
    const core = (await import(modules['reserve-audit/core'] as string)) as Record<string, unknown>;
    expect(Object.keys(core).filter((name) => root[name] !== core[name])).toEqual([]);
  });

  it('calls only functions the namespaces of the package export (store., simulator., amm., api., audit.)', async () => {
    const root = (await import(modules['reserve-audit'] as string)) as Record<
      string,
      Record<string, unknown>
    >;
    const wrong: string[] = [];
    let calls = 0;
    for (const s of snippets) {
      for (const m of s.code.matchAll(/\b(store|simulator|amm|api|audit)\.([A-Za-z_]\w*)\s*\(/g)) {
        const [, ns = '', name = ''] = m;
        calls++;
        if (!(name in (root[ns] ?? {}))) wrong.push(`${s.where}: ${ns}.${name} is not exported`);
      }
    }
    expect(calls).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});

describe('examples/ holds the test vectors it names', () => {
  const files: Record<string, string> = {
    ping: 'Canton.Internal.Ping (V10)',
    iou: 'Iou (V10)',
    'iou-v11': 'CantonExamples Iou (V11)',
    omr: 'Splice OpenMiningRound (V12)',
  };
  const vectors = (
    JSON.parse(readFileSync(join(repoRoot, 'test', 'vectors', 'contract-id-test-vectors.json'), 'utf8')) as {
      blobVectors: { name: string; contractId: string; createdEventBlobBase64: string }[];
    }
  ).blobVectors;

  for (const [name, vectorName] of Object.entries(files)) {
    it(`${name}.b64 / ${name}.cid = blobVectors["${vectorName}"]`, () => {
      const v = vectors.find((x) => x.name === vectorName);
      expect(v).toBeDefined();
      expect(readFileSync(join(repoRoot, 'examples', `${name}.b64`), 'utf8')).toBe(
        `${v?.createdEventBlobBase64}\n`,
      );
      expect(readFileSync(join(repoRoot, 'examples', `${name}.cid`), 'utf8')).toBe(`${v?.contractId}\n`);
    });
  }

  it('examples/README.md names every example file', () => {
    const readme = readFileSync(join(repoRoot, 'examples', 'README.md'), 'utf8');
    const missing = readdirSync(join(repoRoot, 'examples')).filter(
      (n) => n !== 'README.md' && !readme.includes(n),
    );
    expect(missing).toEqual([]);
  });
});
