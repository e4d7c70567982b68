import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { parseSettings } from './src/config/settings';

const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const platformOrigin = process.env.PLATFORM_ORIGIN ?? 'http://127.0.0.1:8080';

// The statechart studio's inspect mode (development only): while serving, the console's own '@xstate/react' imports
// resolve to src/machines/inspected-react.ts, which registers every actor made by useActorRef for the inspect panel.
// `apply: 'serve'` keeps it out of every build.
const inspectedReact = fileURLToPath(new URL('./src/machines/inspected-react.ts', import.meta.url));
const actorInspection: Plugin = {
  name: 'actor-inspection',
  apply: 'serve',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (source !== '@xstate/react' || !importer || importer === inspectedReact || !importer.includes('/src/')) return null;
    return inspectedReact;
  },
};

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, process.cwd(), 'VITE_'), VITE_PACKAGE_VERSION: packageJson.version };
  // Fail the build (and the dev server) with the names of every missing or malformed setting.
  parseSettings(env);
  return {
    plugins: [react(), actorInspection],
    define: {
      'import.meta.env.VITE_PACKAGE_VERSION': JSON.stringify(packageJson.version),
    },
    resolve: {
      alias: { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) },
    },
    build: {
      // scripts/bench-bundle.ts reads the manifest to tell the first route's JS from the lazy routes.
      manifest: true,
      target: 'es2022',
      sourcemap: false,
    },
    server: {
      port: 8300,
      strictPort: true,
      host: '127.0.0.1',
      // The platform serves the API and the identity server; in dev we proxy them so the console stays same-origin.
      proxy: {
        '/api': { target: platformOrigin, changeOrigin: false },
        '/realms': { target: platformOrigin, changeOrigin: false },
        '/dev': { target: platformOrigin, changeOrigin: false },
      },
    },
    preview: { port: 8301, strictPort: true, host: '127.0.0.1' },
  };
});
