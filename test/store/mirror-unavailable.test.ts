/**
 * A mirror that cannot be opened is said for what it is (issue 29, smaller frictions): a missing
 * file, a file that is not a SQLite mirror, a PostgreSQL server that does not answer — not
 * "expected an existing mirror file" for all three.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mirror-unavailable-'));

describe('MIRROR_UNAVAILABLE says which way the mirror is unavailable', () => {
  it('a file that does not exist', async () => {
    const r = await runCliForTest(['history', '--pool', 'p', '--mirror', join(dir, 'nope.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /MIRROR_UNAVAILABLE: "--mirror" expected an existing mirror file, got ".*nope\.db": no such file\n$/,
    );
  });

  it('an existing file that is not a SQLite database', async () => {
    const f = join(dir, 'notes.txt');
    writeFileSync(f, 'these are notes, not a database\n'.repeat(100));
    const r = await runCliForTest(['replay', '--mirror', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /MIRROR_UNAVAILABLE: "--mirror" expected a mirror \(a SQLite database written by reserve-audit\), got ".*notes\.txt": not a SQLite database\n$/,
    );
  });

  it('a postgres:// URL where no server answers, its password never shown', async () => {
    const r = await runCliForTest([
      'history',
      '--pool',
      'p',
      '--mirror',
      'postgres://u:hunter2@127.0.0.1:1/db',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /MIRROR_UNAVAILABLE: "--mirror" expected a PostgreSQL server that answers, got "postgres:\/\/127\.0\.0\.1:1\/db": could not connect \(.*ECONNREFUSED/,
    );
    expect(r.stderr).not.toContain('hunter2');
  });
});
