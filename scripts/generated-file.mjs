/**
 * The write-or-check step shared by the generators (gen-proto.mjs, gen-wasm.mjs): writes a generated
 * source file, or with `--check` on the command line compares it and exits 1 when it is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** `repo`: the repository root (for messages); `source`: what it is generated from; `command`: how to regenerate. */
export function writeOrCheckGenerated(repo, outFile, text, source, command) {
  const name = relative(repo, outFile);
  if (process.argv.includes('--check')) {
    const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
    if (current !== text) {
      process.stderr.write(`${name} is out of date with ${source}: run ${command}\n`);
      process.exit(1);
    }
    process.stdout.write(`${name} is up to date\n`);
  } else {
    writeFileSync(outFile, text);
    process.stdout.write(`wrote ${name}\n`);
  }
}
