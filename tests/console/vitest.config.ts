// The root vitest config plus the `styled-system` alias of vite.config.ts: component tests render the UI kit,
// which imports Panda's generated styled-system/. Until the root config carries the alias, run the console tests as
//   npx vitest run --config tests/console/vitest.config.ts tests/console
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import root from '../../vitest.config';

export default mergeConfig(
  root,
  defineConfig({
    root: fileURLToPath(new URL('../..', import.meta.url)),
    resolve: { alias: { 'styled-system': fileURLToPath(new URL('../../styled-system', import.meta.url)) } },
  }),
);
