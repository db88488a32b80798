/**
 * The folder of this package (the one holding its package.json): where the bundled files
 * (fixtures/, dist/web/) and the version are read from. Found by walking up from this module, so it
 * holds from src/ (tests), from dist/ (the library), from the bundled CLI (dist/bundle/) and from an
 * installed copy under node_modules alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'reserve-audit';

function readPackageJson(dir: string): { name?: unknown; version?: unknown } | null {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return null;
  }
}

let root: { readonly dir: string; readonly version: string } | undefined;

function findRoot(): { readonly dir: string; readonly version: string } {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = readPackageJson(dir);
    if (pkg !== null && pkg.name === PACKAGE_NAME) {
      root = { dir, version: typeof pkg.version === 'string' ? pkg.version : 'unknown' };
      return root;
    }
    const up = dirname(dir);
    if (up === dir)
      throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The absolute path of `relative` (e.g. `fixtures/types/amm-pools.json`) inside this package. */
export function resolvePackagePath(relative: string): string {
  return join(findRoot().dir, relative);
}

/** This package's version, from its package.json. */
export function readPackageVersion(): string {
  return findRoot().version;
}
