/**
 * vitest globalSetup: builds dist/ once before the suite (`tsc -p tsconfig.build.json`), because
 * some tests spawn the built CLI with plain node (bin/reserve-audit.js loads dist/bundle/cli.js:
 * test/docs/examples.test.ts, test/cli/process-edges.test.ts, the distributed replay's worker
 * processes) — production code never loads a TypeScript loader.
 * Skipped when dist/ is newer than every file under src/ (a stamp file records the last build).
 * A type error elsewhere does not stop the suite as long as the CLI was emitted (the type
 * check is its own CI step); a missing CLI does. Then the browser pages' scripts are bundled
 * into dist/web (scripts/build-web.mjs) and the CLI into dist/bundle (scripts/build-cli.mjs), the
 * rest of `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build-stamp');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const WEB = join(ROOT, 'dist', 'web', 'verifier.js');
const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli.js');

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtimeMs(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function buildDist(): void {
  const sources = Math.max(
    newestMtimeMs(join(ROOT, 'src')),
    statSync(join(ROOT, 'tsconfig.json')).mtimeMs,
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  if (
    existsSync(STAMP) &&
    existsSync(CLI) &&
    existsSync(WEB) &&
    existsSync(BUNDLE) &&
    statSync(STAMP).mtimeMs > sources
  )
    return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    const out = String((e as { stdout?: Buffer }).stdout ?? '');
    if (!existsSync(CLI)) throw new Error(`npm run build failed:\n${out}`);
    process.stderr.write(
      `build-dist: tsc reported errors (dist/ was emitted anyway):\n${out.slice(0, 2000)}\n`,
    );
    buildBundles();
    return;
  }
  buildBundles();
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

function buildBundles(): void {
  for (const script of ['build-web.mjs', 'build-cli.mjs']) {
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', script)], { cwd: ROOT, stdio: 'pipe' });
    } catch (e) {
      throw new Error(
        `the bundle failed (scripts/${script}):\n${String((e as { stderr?: Buffer }).stderr ?? '')}`,
      );
    }
  }
}
