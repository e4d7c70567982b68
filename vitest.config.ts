import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Clears model coverage before the run and prints the per-machine table after it.
    globalSetup: ['tests/support/model-coverage.ts'],
  },
});
