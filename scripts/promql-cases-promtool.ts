// Checks the engine's case files (tests/promql/testdata/*.test) against the reference Prometheus: writes them as a
// `promtool test rules` file (instant evaluations; range ones as one instant evaluation per step, except those
// with `@ start()`/`@ end()`, which mean something else at an instant) and runs Debian's promtool on it. promtool
// compares exactly and NaN never equals NaN, so its report also lists cases that differ only there.
//   npx tsx scripts/promql-cases-promtool.ts [promtool path]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelsString } from '../packages/promql/engine/value';
import { parseTestFile } from '../tests/promql/promql-test-runner';

const promtool = process.argv[2] ?? 'promtool';
const dir = join(import.meta.dirname, '..', 'tests', 'promql', 'testdata');

const num = (v: number) => (Number.isNaN(v) ? '.nan' : v === Infinity ? '.inf' : v === -Infinity ? '-.inf' : String(v));
const q = (s: string) => JSON.stringify(s);

let yaml = 'evaluation_interval: 1m\ntests:\n';
let evaluations = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.test')).sort()) {
  const cases = parseTestFile(readFileSync(join(dir, file), 'utf8')).filter((c) => !c.fail && !/@\s*(start|end)\(\)/.test(c.query));
  // Cases sharing the same loaded data go in one test group.
  const groups = new Map<unknown, typeof cases>();
  for (const c of cases) groups.set(c.data, [...(groups.get(c.data) ?? []), c]);
  for (const [, group] of groups) {
    yaml += '  - interval: 1s\n    input_series:\n';
    for (const s of group[0].data) {
      // Samples re-expressed on a 1s grid so any load interval fits.
      const last = s.samples.length ? s.samples[s.samples.length - 1].t / 1000 : 0;
      const values: string[] = new Array(last + 1).fill('_');
      for (const p of s.samples) values[p.t / 1000] = p.stale ? 'stale' : num(p.v).replace('.nan', 'NaN').replace('-.inf', '-Inf').replace('.inf', 'Inf');
      yaml += `      - series: ${q(labelsString(s.labels).replace(/, /g, ','))}\n        values: ${q(values.join(' '))}\n`;
    }
    yaml += '    promql_expr_test:\n';
    for (const c of group) {
      const times = c.kind === 'instant' ? [c.timeMs] : Array.from({ length: Math.floor((c.endMs - c.timeMs) / c.stepMs) + 1 }, (_, k) => c.timeMs + k * c.stepMs);
      if (c.kind === 'instant' && c.expected.some((e) => e.values.length !== 1)) continue;
      times.forEach((t, k) => {
        evaluations++;
        yaml += `      - expr: ${q(c.query)}\n        eval_time: ${t}ms\n        exp_samples:\n`;
        if (c.scalar !== undefined) yaml += `          - labels: "{}"\n            value: ${num(c.scalar)}\n`;
        for (const e of c.expected) {
          const v = e.values[c.kind === 'instant' ? 0 : k];
          if (v === null) continue;
          yaml += `          - labels: ${q(labelsString(e.labels))}\n            value: ${num(v)}\n`;
        }
        if (yaml.endsWith('exp_samples:\n')) yaml = `${yaml.slice(0, -1)} []\n`;
      });
    }
  }
}
const out = join(mkdtempSync(join(tmpdir(), 'promql-cases-')), 'cases.yml');
writeFileSync(out, yaml);
console.log(`${evaluations} evaluations written to ${out}`);
try {
  console.log(execFileSync(promtool, ['test', 'rules', out], { encoding: 'utf8' }));
} catch (error) {
  console.log((error as { stdout?: string }).stdout ?? String(error));
  process.exitCode = 1;
}
