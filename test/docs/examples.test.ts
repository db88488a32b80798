/**
 * The documentation runs as printed. Reads README.md, docs/**\/*.md and examples/README.md and:
 *  - runs every shell example against the built CLI (`npm run build` first; `reserve-audit` and
 *    `npx reserve-audit` are the launcher bin/reserve-audit.js, as for a user) and checks its exit code and
 *    the first line it prints (test/docs/example-runs.ts: the examples of README.md and examples/README.md
 *    run here, those of docs/ in the slow suite, test/slow/docs-examples.test.ts);
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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';
import {
  listDocFiles,
  listHeadingAnchors,
  listRelativeLinks,
  listSnippetImports,
  parseDocCommands,
  parseFences,
  readDoc,
} from './doc-examples.js';
import { describeExampleRuns, isFrontDoorDoc } from './example-runs.js';

const docFiles = listDocFiles(repoRoot);
const parsed = docFiles.map((file) => ({ file, ...parseDocCommands(file, readDoc(repoRoot, file)) }));

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

// README.md and examples/README.md here; the examples of docs/ run in test/slow/docs-examples.test.ts
describeExampleRuns(isFrontDoorDoc);

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
