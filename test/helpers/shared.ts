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
  '../shared/dars is absent: the Splice DARs may not be redistributed, so DAR tests are skipped';
