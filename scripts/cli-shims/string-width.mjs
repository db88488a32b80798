// The CLI bundle's stand-in for the string-width package (scripts/build-cli.mjs): yargs' help layout
// measures every cell with it, and the real one compiles a very large emoji regular expression
// first (about a fifth of `--help`'s time, docs/bench/cli.md). The help texts of this CLI are
// plain text in narrow characters, so the width is the number of code points once the terminal
// escape sequences are removed.
import { stripVTControlCharacters } from 'node:util';

export default function stringWidth(input) {
  if (typeof input !== 'string' || input.length === 0) return 0;
  let n = 0;
  for (const ch of stripVTControlCharacters(input)) {
    const c = ch.codePointAt(0);
    // control characters and combining marks take no column
    if (c >= 0x20 && !(c >= 0x7f && c < 0xa0) && !(c >= 0x300 && c < 0x370)) n++;
  }
  return n;
}
