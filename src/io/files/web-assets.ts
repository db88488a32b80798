/**
 * The browser pages' bundled scripts and styles in dist/web/ (built by `npm run build`, see
 * scripts/build-web.mjs), read by the commands that inline them into one self-contained HTML file.
 * The path is resolved from the package's folder (./package-root.ts), so it is the same from src/
 * (tests), from dist/ and from the bundled CLI.
 */
import { readFile } from 'node:fs/promises';
import { resolvePackagePath } from './package-root.js';

export type WebAsset = 'verifier.js' | 'report.js' | 'uplot.css';

/** Reads a bundled asset; a missing one is an installation fault (exit 3), named with the fix. */
export async function readWebAsset(name: WebAsset): Promise<string> {
  const path = resolvePackagePath(`dist/web/${name}`);
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(
      `cannot read the bundled page asset ${path} (run npm run build): ${(e as Error).message}`,
      {
        cause: e,
      },
    );
  }
}

/** `</script` inside inlined code would end the script element early: escape it. */
export function escapeInlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}
