// npm run bench:bundle — builds the console (unless --no-build and dist/ exists) and prints the gzipped JavaScript
// the first route needs (the entry and its static imports, from Vite's manifest), each lazy chunk, and the qryn
// explorer route's own JavaScript (on opening, and each language's session with what it loads on demand: the
// language, its results panel, the chart library), the landing's chunks (the first route with the shell and overview
// routes); BENCH_VERBOSE=1 adds a per-package breakdown of the landing and of each explorer session.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
/** The source-mapped build BENCH_VERBOSE attributes bytes with (a temporary directory, built once, removed at the end). */
let mappedBuild: { directory: string; chunks: Record<string, ManifestChunk> } | null = null;
const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length / 1024;

/** A chunk plus everything it imports statically (what the browser must load before it runs). */
const closure = (key: string) => closureIn(manifest, key);

const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entryKey) throw new Error('No entry in the Vite manifest: is build.manifest enabled?');
const firstRoute = closure(entryKey);
const firstRouteKb = [...firstRoute].reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
const cssKb = [...firstRoute].flatMap((key) => manifest[key]!.css ?? []).reduce((sum, file) => sum + gzipKb(file), 0);

console.log('\nFirst route (entry + static imports), gzipped:');
for (const key of firstRoute) console.log(`  ${manifest[key]!.file.padEnd(48)} ${gzipKb(manifest[key]!.file).toFixed(1).padStart(7)} kB`);
console.log(`  ${'total JS'.padEnd(48)} ${firstRouteKb.toFixed(1).padStart(7)} kB (budget ${FIRST_ROUTE_BUDGET_KB} kB)`);
console.log(`  ${'CSS'.padEnd(48)} ${cssKb.toFixed(1).padStart(7)} kB`);

// The landing (/ after sign-in) paints the shell and the overview: the first route plus those two lazy routes and
// what they import. Its budget holds for what chromium loads (measured below from the network, which also sees the
// identity server's check-sso scripts); this is the same set read from the manifest, and BENCH_VERBOSE shares it out
// by package: what the first paint carries.
const LANDING_ROUTES = ['src/views/shell/shell-layout.tsx', 'src/views/overview/overview-view.tsx'];
function landingChunks(chunks: Record<string, ManifestChunk>): Set<string> {
  const entry = Object.keys(chunks).find((key) => chunks[key]!.isEntry)!;
  const routeKeys = LANDING_ROUTES.map((src) => Object.keys(chunks).find((key) => chunks[key]!.src === src));
  if (routeKeys.some((key) => !key)) throw new Error(`A landing route is not a chunk of its own: ${LANDING_ROUTES.join(', ')}`);
  return new Set([entry, ...routeKeys].flatMap((key) => [...closureIn(chunks, key!)]));
}
const landing = landingChunks(manifest);
const landingKb = [...landing].reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
console.log(`\nLanding (first route + the shell and overview routes, from the manifest), gzipped: ${landingKb.toFixed(1)} kB in ${landing.size} chunks`);

console.log('\nLazy routes (own chunk / with the shared chunks not already in the first route), gzipped:');
for (const [key, chunk] of Object.entries(manifest).filter(([, chunk]) => chunk.isDynamicEntry)) {
  const extra = [...closure(key)].filter((dependency) => !firstRoute.has(dependency));
  const total = extra.reduce((sum, dependency) => sum + gzipKb(manifest[dependency]!.file), 0);
  console.log(`  ${(chunk.src ?? key).padEnd(56)} ${gzipKb(chunk.file).toFixed(1).padStart(6)} kB / ${total.toFixed(1).padStart(6)} kB`);
}

// The explorer route: what its chunk and its static imports add to the first route and the qryn area it opens from
// (the area's own tabs load those already); then each session's total: the opening plus what a session of each
// language loads on demand (its language, its results panel, uPlot for a chart), shared chunks counted once. The
// budget (issue 26) is for a whole session. BENCH_VERBOSE=1 also builds with source maps into a temporary directory
// and attributes each session's gzipped bytes to packages and source files (each chunk's gzip shared out by the
// share of its bytes the map gives a source).
const explorerKey = Object.keys(manifest).find((key) => manifest[key]!.src === EXPLORER_ENTRY);
const areaKey = Object.keys(manifest).find((key) => manifest[key]!.src === QRYN_AREA_ENTRY);
/** What a session of each language loads on demand beyond the opening (manifest `src` suffixes). */
const EXPLORER_SESSIONS: { name: string; loads: string[] }[] = [
  { name: 'Metrics (PromQL + chart)', loads: ['editor/promql-language.ts', 'uPlot.esm'] },
  { name: 'Logs (LogQL + logs panel + chart)', loads: ['editor/logql-language.ts', 'explorer/logs/logs-panel.tsx', 'uPlot.esm'] },
  { name: 'Traces (TraceQL + traces panel)', loads: ['editor/traceql-language.ts', 'explorer/traces/traces-panel.tsx'] },
];

function explorerSessions(chunks: Record<string, ManifestChunk>, opening: string[], before: Set<string>) {
  const deep = (key: string) => closureIn(chunks, key);
  const beyond = (keys: string[]) => new Set(keys.flatMap((key) => [...deep(key)]).filter((key) => !before.has(key) && !opening.includes(key)));
  return EXPLORER_SESSIONS.map((session) => {
    const parts = session.loads.map((suffix) => {
      // uPlot is a shared chunk (another page imports it too): it has no `src`, its key names it.
      const key = Object.keys(chunks).find((k) => (chunks[k]!.src ?? k).includes(suffix) && chunks[k]!.file.endsWith('.js'));
      if (!key) throw new Error(`The explorer's ${suffix} is not a chunk of its own: is it still imported on demand?`);
      return { suffix, key };
    });
    const all = [...opening, ...beyond(parts.map((part) => part.key))];
    // What the session's own chunks import on demand (after an interaction: a line opened, the live tail started …):
    // not in the session's first download, but a person using the panel loads it, so it is printed and totalled too
    // (a part moved behind an import() must not drop out of the count). The opening's own dynamic imports are the
    // sessions themselves and are not followed.
    const onDemand = new Set<string>();
    const follow = (key: string) => {
      for (const lazy of chunks[key]?.dynamicImports ?? []) {
        for (const dependency of deep(lazy)) {
          if (before.has(dependency) || all.includes(dependency) || onDemand.has(dependency)) continue;
          onDemand.add(dependency);
          follow(dependency);
        }
      }
    };
    for (const key of all.filter((key) => !opening.includes(key))) follow(key);
    return { ...session, parts, all, onDemand: [...onDemand] };
  });
}

if (explorerKey && areaKey) {
  const before = new Set([...firstRoute, ...closure(areaKey)]);
  const own = [...closure(explorerKey)].filter((key) => !before.has(key));
  const ownKb = own.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
  // CodeMirror's and uPlot's class names mark their code: the landing route must carry neither.
  const landingHasExplorer = [...firstRoute].some((key) => /cm-content|u-legend/.test(readFileSync(path.join(dist, manifest[key]!.file), 'utf8')));
  console.log('\nqryn explorer route (beyond the first route and the qryn area), gzipped:');
  for (const key of own) console.log(`  ${manifest[key]!.file.padEnd(48)} ${gzipKb(manifest[key]!.file).toFixed(1).padStart(7)} kB`);
  console.log(`  ${'total JS on opening'.padEnd(48)} ${ownKb.toFixed(1).padStart(7)} kB (budget ${EXPLORER_BUDGET_KB} kB)`);
  const sessions = explorerSessions(manifest, own, before);
  console.log(`\nqryn explorer sessions (opening + what each loads on demand, shared chunks once), gzipped, budget ${EXPLORER_BUDGET_KB} kB:`);
  for (const session of sessions) {
    console.log(`  ${session.name}`);
    console.log(`    ${'opening'.padEnd(44)} ${ownKb.toFixed(1).padStart(7)} kB`);
    const counted = new Set(own);
    for (const part of session.parts) {
      const added = [...closure(part.key)].filter((key) => !before.has(key) && !counted.has(key));
      for (const key of added) counted.add(key);
      const kb = added.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
      console.log(`    ${`+ ${part.suffix.split('/').pop()}`.padEnd(44)} ${kb.toFixed(1).padStart(7)} kB`);
    }
    const totalKb = session.all.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
    const verdict = totalKb <= EXPLORER_BUDGET_KB ? 'within budget' : `over budget by ${(totalKb - EXPLORER_BUDGET_KB).toFixed(1)} kB`;
    console.log(`    ${'session total'.padEnd(44)} ${totalKb.toFixed(1).padStart(7)} kB (${verdict})`);
    const onDemandKb = session.onDemand.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0);
    console.log(`    ${`+ on interaction (${session.onDemand.length} ${session.onDemand.length === 1 ? 'chunk' : 'chunks'})`.padEnd(44)} ${onDemandKb.toFixed(1).padStart(7)} kB`);
    console.log(`    ${'with every on-demand part'.padEnd(44)} ${(totalKb + onDemandKb).toFixed(1).padStart(7)} kB`);
  }
  console.log(landingHasExplorer ? 'WARNING: the first route includes the editor or the charts.' : '  the first route holds neither the editor nor the charts');
  if (landingHasExplorer) process.exitCode = 1;
  if (ownKb > EXPLORER_BUDGET_KB) {
    console.log(`The explorer route is over budget by ${(ownKb - EXPLORER_BUDGET_KB).toFixed(1)} kB.`);
    process.exitCode = 1;
  }
  if (process.env.BENCH_VERBOSE) explorerBreakdown();
}

function sourceMappedBuild(): { directory: string; chunks: Record<string, ManifestChunk> } {
  if (!mappedBuild) {
    const directory = mkdtempSync(path.join(tmpdir(), 'bench-bundle-'));
    // Removed however the run ends (a failed build or read included).
    process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
    execSync(`npx vite build --sourcemap --outDir ${JSON.stringify(directory)} --emptyOutDir --logLevel error`, { stdio: 'inherit' });
    mappedBuild = { directory, chunks: JSON.parse(readFileSync(path.join(directory, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk> };
  }
  return mappedBuild;
}

/** A chunk of a manifest plus everything it imports statically. */
function closureIn(chunks: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dependency of chunks[key]?.imports ?? []) closureIn(chunks, dependency, seen);
  return seen;
}

/** Prints the chunks' gzipped kB per package or source (≥ 0.3 kB), from the source-mapped build. */
function printBreakdown(title: string, directory: string, files: string[], cache = new Map<string, Map<string, number>>()) {
  const total = new Map<string, number>();
  for (const file of files) {
    if (!cache.has(file)) cache.set(file, attribute(directory, file));
    for (const [source, kb] of cache.get(file)!) total.set(source, (total.get(source) ?? 0) + kb);
  }
  console.log(`\n${title}: gzipped kB per package or source (≥ 0.3 kB)`);
  for (const [source, kb] of [...total].sort((a, b) => b[1] - a[1]).filter(([, kb]) => kb >= 0.3)) console.log(`  ${source.padEnd(64)} ${kb.toFixed(1).padStart(6)}`);
}

/** BENCH_VERBOSE: each explorer session's gzipped kB per package or source. */
function explorerBreakdown() {
  const { directory, chunks } = sourceMappedBuild();
  const find = (src: string) => Object.keys(chunks).find((key) => chunks[key]!.src === src)!;
  const entry = Object.keys(chunks).find((key) => chunks[key]!.isEntry)!;
  const before = new Set([...closureIn(chunks, entry), ...closureIn(chunks, find(QRYN_AREA_ENTRY))]);
  const opening = [...closureIn(chunks, find(EXPLORER_ENTRY))].filter((key) => !before.has(key));
  const cache = new Map<string, Map<string, number>>();
  for (const session of [{ name: 'Opening', all: opening }, ...explorerSessions(chunks, opening, before)]) {
    printBreakdown(session.name, directory, session.all.map((key) => chunks[key]!.file), cache);
  }
}

/** A chunk's gzipped kB shared out by source (node_modules files grouped by package), from its source map's segments. */
function attribute(directory: string, file: string): Map<string, number> {
  const code = readFileSync(path.join(directory, file), 'utf8');
  // The bundler's own runtime chunk comes without a source map.
  if (!existsSync(path.join(directory, `${file}.map`))) return new Map([['(bundler runtime)', gzipSync(code).length / 1024]]);
  const map = JSON.parse(readFileSync(path.join(directory, `${file}.map`), 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const bytes = new Map<string, number>();
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    // Each segment runs from its column to the next segment's (or the line's end); its second field moves the source.
    const segments: { column: number; source: number }[] = [];
    let column = 0;
    for (const segment of line.split(',').filter(Boolean)) {
      const fields = decodeVlq(segment);
      column += fields[0]!;
      if (fields.length > 1) source += fields[1]!;
      segments.push({ column, source: fields.length > 1 ? source : -1 });
    }
    segments.forEach((segment, i) => {
      const end = segments[i + 1]?.column ?? lines[index]?.length ?? segment.column;
      const name = segment.source < 0 ? '(generated)' : packageOf(map.sources[segment.source]!);
      bytes.set(name, (bytes.get(name) ?? 0) + end - segment.column);
    });
  });
  const all = [...bytes.values()].reduce((sum, n) => sum + n, 0) || 1;
  const kb = gzipSync(code).length / 1024;
  return new Map([...bytes].map(([name, n]) => [name, (kb * n) / all]));
}

function decodeVlq(segment: string): number[] {
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function packageOf(source: string) {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? source.replace(/^(?:\.\.\/)+/, '').replace(/^.*?\/((?:src|styled-system)\/)/, '$1');
}

if (process.env.BENCH_VERBOSE) {
  const { directory, chunks } = sourceMappedBuild();
  printBreakdown('Landing', directory, [...landingChunks(chunks)].map((key) => chunks[key]!.file));
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
