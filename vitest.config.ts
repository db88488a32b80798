import { defineConfig } from 'vitest/config';

// Default suite (`npm test`): fast and offline. Slow suites (fuzz, soak, kill -9, spawned fleets,
// tests that wait out retry back-offs or cache windows) live in test/slow: `npm run test:slow`.
// globalSetup builds dist/ once: the tests that spawn the CLI run the compiled one with plain node.

/** Files that replace a module with vi.mock: they need a module graph of their own. */
const MOCKING = ['test/cli/internal-error.test.ts', 'test/cli/audit-failure-bug.test.ts'];

const shared = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    // Two forks on this 2-core machine (vitest's default is cores − 1, one fork): most of the suite
    // waits on sockets, child processes and timers, so two forks overlap the waits.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'default',
          globalSetup: ['test/setup/build-dist.ts', 'test/setup/postgres.ts'],
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: ['test/slow/**', 'node_modules/**', 'dist/**', ...MOCKING],
          // The files of a fork share one module graph (no module state is written by a test file):
          // each file no longer re-imports src/, which was a quarter of the suite's CPU time.
          isolate: false,
        },
      },
      { test: { ...shared, name: 'isolated', include: MOCKING } },
    ],
  },
});
