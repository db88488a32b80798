/**
 * The optional packages (docs/decisions/install.md): where one is not installed, the call that needs
 * it fails with InstallError OPTIONAL_PACKAGE_MISSING naming the package and the command that adds
 * it. Run for real: the built module is copied where no node_modules can be found, and asked for
 * each optional package in a fresh node process; here, where they are installed, they load.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireOptionalPackage } from '../../src/io/optional-package.js';
import { repoRoot } from '../helpers/shared.js';

describe('requireOptionalPackage', () => {
  it('loads an installed optional package (the repository installs them for its tests)', () => {
    const ws = requireOptionalPackage<{ WebSocketServer: unknown }>('ws', 'a test');
    expect(typeof ws.WebSocketServer).toBe('function');
  });

  it('names the missing package and how to add it, where it is not installed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'optional-package-'));
    // no node_modules above the copy: require() finds none of the packages
    let up = dir;
    for (;;) {
      expect(existsSync(join(up, 'node_modules')), `${up}/node_modules`).toBe(false);
      if (dirname(up) === up) break;
      up = dirname(up);
    }
    for (const f of ['io/optional-package.js', 'errors/install.js', 'errors/base.js']) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      copyFileSync(join(repoRoot, 'dist', f), join(dir, f));
    }
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `import { requireOptionalPackage } from './io/optional-package.js';
const out = [];
for (const name of ['better-sqlite3', 'pg', 'ws']) {
  try { requireOptionalPackage(name, 'the test'); out.push(name + ': loaded'); }
  catch (e) { out.push(e.name + ' ' + e.message); }
}
process.stdout.write(out.join('\\n'));`,
    );
    const out = execFileSync(process.execPath, [probe], { encoding: 'utf8' }).split('\n');
    expect(out).toEqual(
      ['better-sqlite3', 'pg', 'ws'].map(
        (n) =>
          `InstallError OPTIONAL_PACKAGE_MISSING: "${n}" expected installed (the test needs it; add it with: npm install ${n}), got not installed`,
      ),
    );
  });
});
