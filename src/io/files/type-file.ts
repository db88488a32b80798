/**
 * Reads JSON type files (docs/type-file.md) from disk into Daml package types for the V12 type
 * environment (docs/protocol/contract-id.md §6.4).
 */
import { resolve } from 'node:path';
import type { PackageTypes } from '../../core/types/daml-type.js';
import { parseTypeFile, TYPE_FILE_MAX_CHARS, type TypeFile } from '../../core/types/type-file.js';
import { DamlTypeError } from '../../errors/types.js';
import { readBoundedFile, toFileError } from './bounded-file.js';

/** Reads and validates one type file. Throws DamlTypeError TYPE_FILE_READ_FAILED / TYPE_FILE_INVALID. */
export async function readTypeFile(path: string, cwd = process.cwd()): Promise<TypeFile> {
  const full = resolve(cwd, path);
  const bytes = await readBoundedFile(full, TYPE_FILE_MAX_CHARS * 4, {
    tooLarge: (size) =>
      new DamlTypeError(
        'TYPE_FILE_INVALID',
        `"${path}" expected at most ${TYPE_FILE_MAX_CHARS} characters, got ${size} bytes`,
      ),
    unreadable: (msg, cause) =>
      new DamlTypeError('TYPE_FILE_READ_FAILED', `"${path}" expected a readable type file, got ${msg}`, {
        cause,
      }),
  });
  try {
    return parseTypeFile(bytes.toString('utf8'));
  } catch (e) {
    throw toFileError(e, path, DamlTypeError);
  }
}

/** Reads several type files; returns all their packages in order. */
export async function readTypeFiles(paths: readonly string[], cwd = process.cwd()): Promise<PackageTypes[]> {
  const out: PackageTypes[] = [];
  for (const p of paths) out.push(...(await readTypeFile(p, cwd)).packages);
  return out;
}
