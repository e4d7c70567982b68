// The route table (src/app/routes.tsx) loads every view; a view that imported it back would close an import circle
// through all of them. Views take paths and area helpers from src/app/route-paths.ts, which imports no view. This
// reads each source file's imports (static, type-only, re-exports and import()) as TypeScript sees them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ROUTE_TABLE = 'src/app/routes';
const ROUTE_PATHS = 'src/app/route-paths';
const ROUTER_SETUP = 'src/app/router.tsx';

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** The project modules a file imports, as repository paths without extension ('src/app/routes'). */
function importedModules(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.(tsx?|jsx?)$/, '').replace(/\/index$/, ''));
}

const imports = new Map(sourceFiles('src').map((file) => [file, importedModules(file)]));
const importersOf = (module: string) => [...imports].filter(([, modules]) => modules.includes(module)).map(([file]) => file);

describe('route paths apart from the route table', () => {
  it('finds the imports it checks', () => {
    // A reader that saw no imports would let every rule below pass.
    expect(imports.get(ROUTER_SETUP)).toContain(ROUTE_TABLE);
    expect(importersOf(ROUTE_PATHS).filter((file) => file.startsWith('src/views/')).length).toBeGreaterThan(0);
  });

  it('no view imports the route table', () => {
    expect(importersOf(ROUTE_TABLE).filter((file) => file.startsWith('src/views/'))).toEqual([]);
  });

  it('only the router setup imports the route table', () => {
    expect(importersOf(ROUTE_TABLE)).toEqual([ROUTER_SETUP]);
  });

  it('the route paths import neither a view nor the route table', () => {
    expect(imports.get(`${ROUTE_PATHS}.ts`)!.filter((module) => module.startsWith('src/views/') || module === ROUTE_TABLE)).toEqual([]);
  });
});
