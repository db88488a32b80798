/**
 * Writes a file an option names (`--html`, `--out`, `--junit`): a path that cannot be written (a
 * missing directory, no permission) is the user's input, so it is a UsageError (exit 2) naming the
 * option and the path — not an internal error.
 */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../errors/usage.js';

export async function writeOutputFile(option: string, path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new UsageError(
      'OPTION_INVALID',
      `"--${option}" expected a writable file path, got ${JSON.stringify(path)} (${why})`,
      {
        cause: e,
      },
    );
  }
}
