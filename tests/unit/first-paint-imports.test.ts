import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The console's first paint is kept free of the schema library (effect Schema, ~25 kB gz): the shell's first reads are
// checked by hand (wire-checks.ts) and the decoder loads on first use (docs/testing.md, bench:bundle). One static
// import of a contract module that defines schemas brings the whole library back into the first route, unnoticed by
// any other test, so this walks the static imports of the first paint's services and fails on any path to `effect`.
const root = path.resolve(__dirname, '../..');
const ENTRIES = ['src/services/http.ts', 'src/services/shell-reads.ts', 'src/services/wire-checks.ts'];

/** Static value imports of a module (type-only imports and dynamic `import()` load nothing at start). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) found.push(m[2]!);
  return found;
}

function resolveModule(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/));
}

/** The first chain of static imports from `entry` that reaches a bare specifier matching `banned`, if any. */
function pathTo(entry: string, banned: RegExp): string[] | undefined {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | undefined => {
    if (seen.has(file)) return undefined;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        if (banned.test(spec)) return [...chain, spec];
        continue;
      }
      const next = resolveModule(file, spec);
      const found = next && walk(next, [...chain, path.relative(root, next)]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(path.join(root, entry), [entry]);
}

describe("the first paint's services do not load the schema library", () => {
  for (const entry of ENTRIES) {
    it(`${entry} reaches no effect module through static imports`, () => {
      expect(pathTo(entry, /^effect(\/|$)/)).toBeUndefined();
    });
  }

  it('the walk finds such a path when there is one', () => {
    expect(pathTo('contract/errors.ts', /^effect(\/|$)/)).toEqual(['contract/errors.ts', 'effect']);
  });
});
