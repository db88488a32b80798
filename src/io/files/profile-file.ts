/**
 * Reading the reserve profile of --profile (src/core/proof/profile.ts has the format), or the
 * built-in default when none is given. An unreadable file or a bad document is AuditError
 * PROFILE_INVALID.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_RESERVE_PROFILE,
  parseReserveProfile,
  type ReserveProfile,
} from '../../core/proof/profile.js';
import { AuditError } from '../../errors/audit.js';

export interface ReserveProfileSource {
  /** a parsed profile (wins over profilePath) */
  readonly profile?: ReserveProfile | undefined;
  readonly profilePath?: string | null | undefined;
  readonly cwd?: string | undefined;
}

/** The reserve profile of --profile, or the built-in default. */
export async function loadReserveProfile(o: ReserveProfileSource): Promise<ReserveProfile> {
  if (o.profile !== undefined) return o.profile;
  if (o.profilePath == null) return DEFAULT_RESERVE_PROFILE;
  const path = resolve(o.cwd ?? process.cwd(), o.profilePath);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new AuditError(
      'PROFILE_INVALID',
      `"--profile" expected a readable JSON file, got ${JSON.stringify(o.profilePath)}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  return parseReserveProfile(json, o.profilePath);
}
