// The root vitest config plus the `styled-system` alias of vite.config.ts, which views need (the UI kit imports
// Panda's generated styled-system/). Used to run the organization view tests until the root config has the alias:
//   npx vitest run --config tests/console/organization/vitest.config.ts tests/model/card-setup.test.tsx
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import root from '../../../vitest.config';

export default mergeConfig(
  root,
  defineConfig({
    root: fileURLToPath(new URL('../../..', import.meta.url)),
    resolve: { alias: { 'styled-system': fileURLToPath(new URL('../../../styled-system', import.meta.url)) } },
  }),
);
