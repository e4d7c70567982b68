import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Component tests render the UI kit, which imports Panda's generated styled-system/ (same alias as vite.config.ts).
  resolve: { alias: { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Limits that catch a hang, not a slow machine: in CI vitest shares two cores with Playwright and the browser
    // benchmarks, and a test that starts a platform twice (a restart on the same data) took 30 s there at a load
    // average of 13. Speed is measured by the benchmark scripts, never by these.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Clears model coverage before the run and prints the per-machine table after it.
    globalSetup: ['tests/support/model-coverage.ts'],
  },
});
