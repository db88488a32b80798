/**
 * Access to ../shared/dars (DARs that may not be redistributed). Tests that need it call
 * `sharedDarsDir()` and skip, saying so, when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** ../shared/dars next to the repository, or null when it is not there. */
export function sharedDarsDir(): string | null {
  const dir = join(repoRoot, '..', 'shared', 'dars');
  return existsSync(join(dir, 'splice-amulet-0.1.17.dar')) ? dir : null;
}

export const SHARED_DARS_SKIP_REASON =
  `the real DARs are missing — no splice-amulet-0.1.17.dar in ${join(repoRoot, '..', 'shared', 'dars')} ` +
  '(a folder shared/dars beside this checkout), so the tests on real DARs are skipped. They cannot be ' +
  'redistributed; get the Splice releases (splice-amulet 0.1.14–0.1.19, splice-dso-governance 0.1.20–0.1.21: ' +
  'daml/dars/ of the Splice repository, github.com/hyperledger-labs/splice) and put the .dar files there';
