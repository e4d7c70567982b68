import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs describe the system as it is; measured figures live in docs/benchmarks.md alone (one row per benchmark,
// the latest run), so a reader never has to tell today's behaviour from an earlier run's.

const root = path.resolve(__dirname, '../..');
const docs = path.join(root, 'docs');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

const DATED = [
  { what: 'an ISO date', pattern: /\b20\d\d-[01]\d-[0-3]\d\b/ },
  { what: 'a written date', pattern: /\b[0-3]?\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* 20\d\d\b/ },
  { what: 'a time of a run', pattern: /\b[0-2]?\d:[0-5]\d[–-][0-2]?\d:[0-5]\d UTC\b/ },
  { what: 'a tracker reference', pattern: /\b[Ii]ssue \d+\b/ },
];

describe('docs describe what is', () => {
  it('hold no dated measurement runs outside docs/benchmarks.md', () => {
    const found: string[] = [];
    for (const file of markdownFiles(docs)) {
      if (path.basename(file) === 'benchmarks.md') continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        for (const { what, pattern } of DATED) {
          if (pattern.test(line)) found.push(`${path.relative(root, file)}:${i + 1}: ${what}: ${line.trim().slice(0, 100)}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('keep one row per figure in docs/benchmarks.md, each with its date, load and command', () => {
    const rows = readFileSync(path.join(docs, 'benchmarks.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| benchmark |'));
    expect(rows.length).toBeGreaterThan(10);
    const bad = rows.filter((row) => {
      const cells = row.replace(/\\\|/g, '').split('|').slice(1, -1).map((cell) => cell.trim());
      return cells.length !== 5 || !/20\d\d-[01]\d-[0-3]\d/.test(cells[2]) || !/npm run|npx|tsx|same/.test(cells[4]);
    });
    expect(bad).toEqual([]);
  });

  it('draws the layers in docs/architecture.md with folders that exist', () => {
    const text = readFileSync(path.join(docs, 'architecture.md'), 'utf8');
    const picture = text.slice(text.indexOf('```') + 3, text.indexOf('```', text.indexOf('```') + 3));
    const folders = [...picture.matchAll(/\b((?:src|server|contract|packages|tests|e2e)(?:\/[a-z0-9-]+)*(?:\.ts)?)\b/g)].map((m) => m[1]);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((folder) => !existsSync(path.join(root, folder)))).toEqual([]);
  });
});
