import { defineConfig } from 'vitest/config';

// Default suite: fast and offline. Slow suites (fuzz, soak, kill -9) live in test/slow.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['test/slow/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
