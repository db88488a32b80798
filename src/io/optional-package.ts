/**
 * Loading an optional package where it is first used (docs/decisions/install.md): better-sqlite3
 * (the SQLite mirror and the reference server's ledger), pg (the PostgreSQL mirror) and ws (the
 * server's websocket) are optional peer dependencies, so `npm install reserve-audit` compiles
 * nothing and a verify-only user never loads them. A module that needs one asks here, at the call
 * that needs it, and a missing package is an InstallError that names it and the command that adds
 * it. All three are CommonJS packages, loaded synchronously, so the calls that open a database stay
 * synchronous.
 */
import { createRequire } from 'node:module';
import { InstallError } from '../errors/install.js';

export type OptionalPackage = 'better-sqlite3' | 'pg' | 'ws';

const require = createRequire(import.meta.url);
const loaded = new Map<OptionalPackage, unknown>();

/** `name`'s exports (cached); throws InstallError OPTIONAL_PACKAGE_MISSING when it is not installed. */
export function requireOptionalPackage<T>(name: OptionalPackage, neededFor: string): T {
  if (loaded.has(name)) return loaded.get(name) as T;
  let mod: unknown;
  try {
    mod = require(name);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'MODULE_NOT_FOUND' && String((e as Error).message).includes(`'${name}'`))
      throw new InstallError(
        'OPTIONAL_PACKAGE_MISSING',
        `"${name}" expected installed (${neededFor} needs it; add it with: npm install ${name}), got not installed`,
        { details: { package: name }, cause: e },
      );
    throw new InstallError(
      'OPTIONAL_PACKAGE_MISSING',
      `"${name}" expected loadable (${neededFor} needs it; reinstall it with: npm install ${name}), got: ${(e as Error).message.split('\n')[0]}`,
      { details: { package: name }, cause: e },
    );
  }
  loaded.set(name, mod);
  return mod as T;
}
