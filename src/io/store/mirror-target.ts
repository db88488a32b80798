/**
 * What names a mirror (docs/mirror.md "Two backends"): a `postgres://` or `postgresql://` URL, or a
 * SQLite file path; and the environment variable that is the commands' default. Kept apart from the
 * backends so that reading an option loads no database driver.
 */
import { resolve } from 'node:path';

/** The environment variable naming the default mirror (a file path or a postgres:// URL). */
export const MIRROR_ENV = 'RESERVE_AUDIT_MIRROR';

/** True for a postgres:// or postgresql:// target. */
export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target.trim());
}

/** A mirror target resolved against `cwd`: a file path made absolute, a postgres:// URL as is. */
export function resolveMirrorTarget(target: string, cwd: string): string {
  return isPostgresTarget(target) ? target.trim() : resolve(cwd, target);
}
