/** Spawning and killing the crash-test child process (test/store/crash-child.ts). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

/** Spawns the child and resolves once `marker` appears on its stdout; returns the child. */
export function spawnUntil(db: string, mode: string, marker: RegExp): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, db, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (marker.test(out)) resolve(child);
    });
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before ${marker}: ${err}`)));
  });
}

export function killed(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
