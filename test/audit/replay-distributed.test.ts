/**
 * Distributed replay (src/run/replay-distributed.ts) needs a PostgreSQL mirror: --run and --worker are
 * refused on a SQLite one. The distributed runs themselves (watchers and `replay --worker` processes
 * on one database) are in the slow suite: test/slow/replay-distributed.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';

describe('distributed replay', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ra-replay-dist-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('--run and --worker need a PostgreSQL mirror (exit 2)', async () => {
    const r = await runCliForTest(['replay', '--mirror', join(dir, 'same.db'), '--worker']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"--worker" expected a postgres:// mirror');
  });
});
