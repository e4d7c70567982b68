import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's layers (docs/architecture.md): the platform API (server/api) and the product back ends
// (server/products) both build on the route kit (server/route-kit) and never on each other; the platform wires the
// concrete products into the API (server/platform.ts). The console (src) and the server share only the contract.
// A single import across either seam brings the circle back unnoticed by every behaviour test, so this reads the
// import lines of every file and fails naming the files. Type-only imports count: they tie the layers as well.
const root = path.resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/**
 * Every module a source names: import and export-from lines (multi-line lists and `import type` included), bare
 * `import '…'`, dynamic `import('…')`, `require('…')` and worker entries (`new URL('…', import.meta.url)`).
 */
function importedSpecifiers(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bnew\s+URL\s*\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]!));
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return SOURCE.test(name) ? [full] : [];
  });
}

/** Repository-relative imports of the given files: relative specifiers resolved to the path they name. */
function importEdges(files: Record<string, string>): { from: string; to: string }[] {
  return Object.entries(files).flatMap(([from, source]) =>
    importedSpecifiers(source)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => ({ from, to: path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) })),
  );
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

/** The imports that cross from one folder into the other, as "importer → imported" lines. */
function crossings(edges: { from: string; to: string }[], a: string, b: string): string[] {
  return edges
    .filter(({ from, to }) => (under(from, a) && under(to, b)) || (under(from, b) && under(to, a)))
    .map(({ from, to }) => `${from} → ${to}`);
}

function readTree(...dirs: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) files[path.relative(root, file).split(path.sep).join('/')] = readFileSync(file, 'utf8');
  }
  return files;
}

describe('server layers', () => {
  const server = importEdges(readTree('server'));

  it('reads the server tree (the walk is not empty)', () => {
    expect(server.some(({ from }) => under(from, 'server/api'))).toBe(true);
    expect(server.some(({ from }) => under(from, 'server/products'))).toBe(true);
  });

  it('server/api and server/products import nothing of each other (both build on server/route-kit)', () => {
    expect(crossings(server, 'server/api', 'server/products')).toEqual([]);
  });

  it('the route kit imports neither side', () => {
    const kitOut = server.filter(({ from, to }) => under(from, 'server/route-kit') && (under(to, 'server/api') || under(to, 'server/products')));
    expect(kitOut.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('the server and the console import nothing of each other (they share contract/ only)', () => {
    const edges = importEdges(readTree('server', 'src'));
    expect(crossings(edges, 'server', 'src')).toEqual([]);
  });

  it('names each crossing, whatever the form of the import', () => {
    const edges = importEdges({
      'server/api/a.ts': [
        "import type { ProductBackend } from '../products/product-backend';",
        'import {',
        '  createProductRegistry,',
        '  type ProductRegistry,',
        "} from '../products/product-registry';",
        "import { sendJson } from '../route-kit/http';",
      ].join('\n'),
      'server/products/b/c.ts': "export { visibleProjectOr404 } from '../../api/project-routes';\nconst x = await import('../../api/d');",
      'server/products/b/e.ts': "import { requireCaller } from '../../route-kit/caller';\nimport './f';",
    });
    expect(crossings(edges, 'server/api', 'server/products')).toEqual([
      'server/api/a.ts → server/products/product-backend',
      'server/api/a.ts → server/products/product-registry',
      'server/products/b/c.ts → server/api/project-routes',
      'server/products/b/c.ts → server/api/d',
    ]);
  });
});
