/**
 * A PostgreSQL mirror URL's credentials are never printed (issue: "credentials never printed,
 * redacted as URLs are today"): not in a StoreError, not in any command's output. The server is a
 * closed port, so no PostgreSQL is needed: the failure path is where a password would leak.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openMirrorStore } from '../../src/io/store/index.js';

const SECRET = 's3cret-pw-7c1f';
const URL_WITH_SECRET = `postgres://alice:${SECRET}@127.0.0.1:1/mirror`;
const BIN = fileURLToPath(new URL('../../bin/reserve-audit.js', import.meta.url));

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (e, stdout, stderr) => {
      resolve({ code: typeof e?.code === 'number' ? e.code : 0, out: `${stdout}\n${stderr}` });
    });
  });
}

describe('PostgreSQL mirror credentials', () => {
  it('a StoreError names the URL without user or password', async () => {
    const err = await openMirrorStore(URL_WITH_SECRET).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'STORE_OPEN_FAILED' });
    expect(String((err as Error).message)).toContain('127.0.0.1:1/mirror');
    expect(String((err as Error).message)).not.toContain(SECRET);
  });

  const commands: [string, string[], NodeJS.ProcessEnv][] = [
    ['replay --mirror', ['replay', '--mirror', URL_WITH_SECRET], {}],
    ['replay --json --mirror', ['replay', '--json', '--mirror', URL_WITH_SECRET], {}],
    ['history --mirror', ['history', '--pool', 'p', '--mirror', URL_WITH_SECRET], {}],
    ['report --mirror', ['report', '--html', '/dev/null', '--mirror', URL_WITH_SECRET], {}],
    ['RESERVE_AUDIT_MIRROR', ['replay'], { RESERVE_AUDIT_MIRROR: URL_WITH_SECRET }],
  ];
  for (const [name, args, env] of commands)
    it(`${name}: exit 2, the secret in no output`, async () => {
      const r = await run(args, env);
      expect(r.code).toBe(2);
      expect(r.out).not.toContain(SECRET);
      // the cause in its own words, not a guess ("expected an existing mirror file")
      expect(r.out).toContain('ECONNREFUSED');
    }, 30_000);
});
