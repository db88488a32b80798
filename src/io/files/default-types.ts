/**
 * The Daml type sources of a pipeline: the files given with --types/--dar, or — when neither is
 * given — the bundled reference server's V12 types (fixtures/types/amm-pools.json), declared here
 * once for audit, snapshot, replay and the demo; `verify-contract` (one contract or a batch) knows
 * the bundled types always, beside whatever it is given.
 */
import { fileURLToPath } from 'node:url';
import type { TypeEnv } from '../../core/types/type-env.js';
import { loadTypeEnvFromFiles } from './dar-file.js';

/** The bundled server's V12 types, used when neither --types nor --dar is given (an absolute path). */
const DEFAULT_TYPE_FILE: string = fileURLToPath(
  new URL('../../../fixtures/types/amm-pools.json', import.meta.url),
);

export interface TypeSources {
  readonly typeFiles?: readonly string[];
  readonly dars?: readonly string[];
  /** relative paths are resolved against it (default: the process's working directory) */
  readonly cwd?: string | undefined;
}

/** Loads --types/--dar, or the bundled server's type file when neither is given. */
export async function loadTypesOrDefault(o: TypeSources): Promise<TypeEnv> {
  const typeFiles = o.typeFiles ?? [];
  const dars = o.dars ?? [];
  const sources =
    typeFiles.length === 0 && dars.length === 0 ? { typeFiles: [DEFAULT_TYPE_FILE] } : { typeFiles, dars };
  return (await loadTypeEnvFromFiles(sources, o.cwd === undefined ? {} : { cwd: o.cwd })).env;
}

/**
 * Loads --types/--dar and, always, the bundled server's type file: `verify-contract` checks the
 * reference server's contracts without a flag, and a DAR given for other contracts adds to that.
 * A package given both ways is kept once (the given one, loaded first).
 */
export async function loadTypesWithDefault(o: TypeSources): Promise<TypeEnv> {
  const sources = { typeFiles: [...(o.typeFiles ?? []), DEFAULT_TYPE_FILE], dars: o.dars ?? [] };
  return (await loadTypeEnvFromFiles(sources, o.cwd === undefined ? {} : { cwd: o.cwd })).env;
}
