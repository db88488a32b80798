import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    // builds dist/ once: replay's worker threads run the compiled worker with plain node
    globalSetup: ['test/setup/build-dist.ts', 'test/setup/postgres.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
