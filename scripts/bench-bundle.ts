// npm run bench:bundle — builds the console (unless --no-build and dist/ exists) and prints the gzipped JavaScript
// the first route needs (the entry and its static imports, from Vite's manifest), each lazy chunk, and the qryn
// explorer route's own JavaScript (on opening, and what it loads later on demand: a language, the chart library).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchSmoke, budgetExitCode, requireBuild } from './bench-budget';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const FIRST_ROUTE_BUDGET_KB = 150;
// The qryn explorer (/{project}/stack/qryn/view): its editor, grammars and charts load only there (issue 26).
const EXPLORER_BUDGET_KB = 150;
const EXPLORER_ENTRY = 'src/views/stack/qryn/qryn-view-page.tsx';
const QRYN_AREA_ENTRY = 'src/views/stack/qryn/qryn-area.tsx';
const root = process.cwd();
const dist = path.join(root, 'dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');

// BENCH_SMOKE=1 (scripts/test.sh, after its own build): no build, the dist/ there is (an error when it is missing);
// the manifest view, then the landing route's browser load only; figures over budget printed, not failing the run.
const SMOKE = benchSmoke();
if (SMOKE) requireBuild(root);
else if (!process.argv.includes('--no-build') || !existsSync(manifestPath)) {
  execSync('npm run build --silent', { stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length / 1024;

/** A chunk plus everything it imports statically (what the browser must load before it runs). */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dependency of manifest[key]?.imports ?? []) closure(dependency, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entryKey) throw new Error('No entry in the Vite manifest: is build.manifest enabled?');
const firstRoute = closure(entryKey);
const firstRouteKb = [...firstRoute].reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
const cssKb = [...firstRoute].flatMap((key) => manifest[key]!.css ?? []).reduce((sum, file) => sum + gzipKb(file), 0);

console.log('\nFirst route (entry + static imports), gzipped:');
for (const key of firstRoute) console.log(`  ${manifest[key]!.file.padEnd(48)} ${gzipKb(manifest[key]!.file).toFixed(1).padStart(7)} kB`);
console.log(`  ${'total JS'.padEnd(48)} ${firstRouteKb.toFixed(1).padStart(7)} kB (budget ${FIRST_ROUTE_BUDGET_KB} kB)`);
console.log(`  ${'CSS'.padEnd(48)} ${cssKb.toFixed(1).padStart(7)} kB`);

console.log('\nLazy routes (own chunk / with the shared chunks not already in the first route), gzipped:');
for (const [key, chunk] of Object.entries(manifest).filter(([, chunk]) => chunk.isDynamicEntry)) {
  const extra = [...closure(key)].filter((dependency) => !firstRoute.has(dependency));
  const total = extra.reduce((sum, dependency) => sum + gzipKb(manifest[dependency]!.file), 0);
  console.log(`  ${(chunk.src ?? key).padEnd(56)} ${gzipKb(chunk.file).toFixed(1).padStart(6)} kB / ${total.toFixed(1).padStart(6)} kB`);
}

// The explorer route: what its chunk and its static imports add to the first route and the qryn area it opens from
// (the area's own tabs load those already), and, separately, the chunks it loads later on demand (dynamic imports).
const explorerKey = Object.keys(manifest).find((key) => manifest[key]!.src === EXPLORER_ENTRY);
const areaKey = Object.keys(manifest).find((key) => manifest[key]!.src === QRYN_AREA_ENTRY);
if (explorerKey && areaKey) {
  const before = new Set([...firstRoute, ...closure(areaKey)]);
  const own = [...closure(explorerKey)].filter((key) => !before.has(key));
  const ownKb = own.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
  const onDemand = new Set<string>();
  for (const key of own) for (const lazy of manifest[key]!.dynamicImports ?? []) for (const dependency of closure(lazy)) if (!before.has(dependency) && !own.includes(dependency)) onDemand.add(dependency);
  const onDemandKb = [...onDemand].reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
  // CodeMirror's and uPlot's class names mark their code: the landing route must carry neither.
  const landingHasExplorer = [...firstRoute].some((key) => /cm-content|u-legend/.test(readFileSync(path.join(dist, manifest[key]!.file), 'utf8')));
  console.log('\nqryn explorer route (beyond the first route and the qryn area), gzipped:');
  for (const key of own) console.log(`  ${manifest[key]!.file.padEnd(48)} ${gzipKb(manifest[key]!.file).toFixed(1).padStart(7)} kB`);
  console.log(`  ${'total JS on opening'.padEnd(48)} ${ownKb.toFixed(1).padStart(7)} kB (budget ${EXPLORER_BUDGET_KB} kB)`);
  for (const key of onDemand) console.log(`  on demand: ${(manifest[key]!.src ?? manifest[key]!.file).slice(-37).padEnd(37)} ${gzipKb(manifest[key]!.file).toFixed(1).padStart(7)} kB`);
  console.log(`  ${'loaded later on demand, all'.padEnd(48)} ${onDemandKb.toFixed(1).padStart(7)} kB`);
  console.log(landingHasExplorer ? 'WARNING: the first route includes the editor or the charts.' : '  the first route holds neither the editor nor the charts');
  if (landingHasExplorer) process.exitCode = 1;
  if (ownKb > EXPLORER_BUDGET_KB) {
    console.log(`The explorer route is over budget by ${(ownKb - EXPLORER_BUDGET_KB).toFixed(1)} kB.`);
    process.exitCode = 1;
  }
}

const stripeInFirstRoute = [...firstRoute].some((key) => readFileSync(path.join(dist, manifest[key]!.file), 'utf8').includes('js.stripe.com'));
if (stripeInFirstRoute) console.log('\nWARNING: the payment provider script is referenced by the first route.');
if (firstRouteKb > FIRST_ROUTE_BUDGET_KB) {
  console.log(`\nFirst route is over budget by ${(firstRouteKb - FIRST_ROUTE_BUDGET_KB).toFixed(1)} kB.`);
  process.exitCode = 1;
}

// The manifest counts what the entry imports; the browser also loads the lazy route chunks and what they import
// before a page paints. The honest figure comes from chromium's network (scripts/bench-browser.ts).
if (!process.argv.includes('--no-browser')) {
  const { measureRouteLoads } = await import('./bench-browser');
  if ((await measureRouteLoads()) !== 0) process.exitCode = 1;
}
process.exitCode = budgetExitCode(Number(process.exitCode ?? 0), SMOKE);
