import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Rules of the code's layout that a reader relies on (docs/architecture.md): they are checked here so that they
// cannot erode one file at a time.

const root = path.resolve(__dirname, '../..');
const SOURCE = /\.(ts|tsx|mjs)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((spec) => path.resolve(path.dirname(file), spec));
}

describe('qryn is laid out in rooms', () => {
  const qryn = path.join(root, 'server/products/qryn');
  const rooms = readdirSync(qryn).filter((name) => statSync(path.join(qryn, name)).isDirectory());

  it('keeps at most 12 source files at its top level, each room with a README', () => {
    const top = readdirSync(qryn).filter((name) => SOURCE.test(name));
    expect(top.length, top.join(', ')).toBeLessThanOrEqual(12);
    for (const room of rooms) expect(readdirSync(path.join(qryn, room)), room).toContain('README.md');
  });

  it('has no import circle among its rooms, and no room imports the top level', () => {
    const edges = new Map<string, Set<string>>(rooms.map((room) => [room, new Set<string>()]));
    const upward: string[] = [];
    for (const room of rooms) {
      for (const file of walk(path.join(qryn, room)).filter((f) => SOURCE.test(f))) {
        for (const target of relativeImports(file)) {
          const rel = path.relative(qryn, target);
          if (rel.startsWith('..')) continue;
          const [first, ...rest] = rel.split(path.sep);
          if (rest.length === 0) upward.push(`${path.relative(qryn, file)} → ${rel}`);
          else if (first !== room) edges.get(room)?.add(first);
        }
      }
    }
    expect(upward).toEqual([]);
    const circles: string[] = [];
    const visit = (room: string, trail: string[]) => {
      for (const next of edges.get(room) ?? []) {
        if (next === trail[0]) circles.push([...trail, next].join(' → '));
        else if (!trail.includes(next)) visit(next, [...trail, next]);
      }
    };
    for (const room of rooms) visit(room, [room]);
    expect(circles).toEqual([]);
  });
});

describe('source files stay readable', () => {
  it('keeps every source file outside the tests at 600 lines or fewer', () => {
    const dirs = ['src', 'server', 'packages', 'contract', 'scripts'].map((d) => path.join(root, d));
    const long = dirs
      .flatMap((dir) => walk(dir))
      .filter((file) => SOURCE.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => ({ file: path.relative(root, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > 600);
    expect(long).toEqual([]);
  });
});

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
