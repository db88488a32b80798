import { defineConfig } from 'vitest/config';

// Default suite: fast and offline. Slow suites (fuzz, soak, kill -9) live in test/slow.
// globalSetup builds dist/ once: replay's worker threads run the compiled worker with plain node.
export default defineConfig({
  test: {
    globalSetup: ['test/setup/build-dist.ts', 'test/setup/postgres.ts'],
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/slow/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
