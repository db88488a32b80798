/**
 * The Daml type sources of a pipeline: the files given with --types/--dar, or — when neither is
 * given — the bundled reference server's V12 types (fixtures/types/amm-pools.json), declared here
 * once for audit, snapshot, replay and the demo; `verify-contract` (one contract or a batch) knows
 * the bundled types always, beside whatever it is given.
 */
import { readFile } from 'node:fs/promises';
import { createTypeEnv, type TypeEnv } from '../../core/types/type-env.js';
import { resolvePackagePath } from './package-root.js';
import { readTypeFiles } from './type-file.js';

/** The bundled server's V12 types (the package's fixtures/types/amm-pools.json). */
const DEFAULT_TYPE_FILE = 'fixtures/types/amm-pools.json';

/** Type files and DARs into one environment; the DAR reader is loaded only when a DAR is given. */
async function loadSources(
  typeFiles: readonly string[],
  dars: readonly string[],
  cwd: string | undefined,
): Promise<TypeEnv> {
  if (dars.length === 0) return createTypeEnv(await readTypeFiles(typeFiles, cwd));
  const { loadTypeEnvFromFiles } = await import('./dar-file.js');
  return (await loadTypeEnvFromFiles({ typeFiles, dars }, cwd === undefined ? {} : { cwd })).env;
}

export interface TypeSources {
  readonly typeFiles?: readonly string[];
  readonly dars?: readonly string[];
  /** relative paths are resolved against it (default: the process's working directory) */
  readonly cwd?: string | undefined;
}

/** Loads --types/--dar, or the bundled server's type file when neither is given. */
export async function loadTypesOrDefault(o: TypeSources): Promise<TypeEnv> {
  const typeFiles = o.typeFiles ?? [];
  const none = typeFiles.length === 0 && (o.dars ?? []).length === 0;
  return loadSources(none ? [resolvePackagePath(DEFAULT_TYPE_FILE)] : typeFiles, o.dars ?? [], o.cwd);
}

/**
 * Loads --types/--dar and, always, the bundled server's type file: `verify-contract` checks the
 * reference server's contracts without a flag, and a DAR given for other contracts adds to that.
 * A package given both ways is kept once (the given one, loaded first).
 */
export async function loadTypesWithDefault(o: TypeSources): Promise<TypeEnv> {
  return loadSources([...(o.typeFiles ?? []), resolvePackagePath(DEFAULT_TYPE_FILE)], o.dars ?? [], o.cwd);
}

/** The bundled server's type file as compact JSON text (the verifier page inlines it). */
export async function readDefaultTypeFileText(): Promise<string> {
  return JSON.stringify(JSON.parse(await readFile(resolvePackagePath(DEFAULT_TYPE_FILE), 'utf8')));
}
