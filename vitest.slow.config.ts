import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/slow/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 60_000, pool: 'forks' },
});
