import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Component tests render the UI kit, which imports Panda's generated styled-system/ (same alias as vite.config.ts).
  resolve: { alias: { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Clears model coverage before the run and prints the per-machine table after it.
    globalSetup: ['tests/support/model-coverage.ts'],
  },
});
