/**
 * A throw-away PostgreSQL cluster for tests and benchmarks (docs/mirror.md "PostgreSQL"): `initdb`
 * into a temporary directory, `pg_ctl start` on a free localhost port (unix socket in the same
 * directory), trust authentication, fsync off. Run as the `postgres` user when this process is
 * root (PostgreSQL refuses to run as root), with the directory chowned to it. The binaries are
 * found on PATH or under /usr/lib/postgresql/<version>/bin. `findPgBinaries` says why when there
 * are none, so a suite can skip saying why (or fail under CI=true).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface PgBinaries {
  readonly initdb: string;
  readonly pgCtl: string;
}

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  stop(): void;
}

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (dir !== '' && existsSync(p)) return p;
  }
  return null;
}

/** initdb and pg_ctl from PATH, else from the newest /usr/lib/postgresql/<v>/bin; or why not. */
export function findPgBinaries(): PgBinaries | { readonly missing: string } {
  const initdb = which('initdb');
  const pgCtl = which('pg_ctl');
  if (initdb !== null && pgCtl !== null) return { initdb, pgCtl };
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')))
      return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl') };
  }
  return {
    missing:
      'PostgreSQL is not installed (no initdb/pg_ctl on PATH or under /usr/lib/postgresql/*/bin; Debian: apt-get install -y postgresql)',
  };
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a cluster; `stop()` stops it (immediate mode) and deletes its directory. */
export async function startPgCluster(bins: PgBinaries): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'reserve-audit-pg-'));
  const data = join(dir, 'data');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const run = (file: string, args: string[]): void => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    execFileSync(cmd, argv, { stdio: 'pipe', cwd: dir });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  try {
    run(bins.initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    run(bins.pgCtl, ['-D', data, '-l', join(dir, 'log'), '-o', opts, '-w', '-t', '60', 'start']);
  } catch (e) {
    const out = String((e as { stderr?: Buffer }).stderr ?? (e as Error).message);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a PostgreSQL cluster: ${out}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => {
      try {
        run(bins.pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
