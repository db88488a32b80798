/**
 * A file given as a DAR that is neither a zip nor a Daml-LF archive is said to be so first ("not a
 * DAR (zip) file"), with the wire detail after it; a JSON file given as a DAR is pointed at --types.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'not-a-dar-'));
const file = (name: string, content: string | Uint8Array): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe('a file that is not a DAR', () => {
  it('text: "not a DAR (zip) file", then what the DALF reader found (exit 2)', async () => {
    const p = file('notes.dar', 'hello\n');
    const r = await runCliForTest(['inspect-dar', p]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(
      /DAR_ARCHIVE_MALFORMED: .*notes\.dar: not a DAR \(zip\) file: no zip signature, and not a DALF either \("Archive" wire type expected/,
    );
  });

  it('JSON: "not a DAR (zip) file: it is JSON — a type file? give it with --types"', async () => {
    const p = file('types.dar', '{"format":"reserve-audit/type-file"}');
    const r = await runCliForTest(['verify-contract', '--batch', '-', '--dar', p], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a DAR \(zip\) file: it is JSON — a type file\? give it with --types/);
  });
});
