// `npm run test:path -- <machine> <path-id>`: replays one generated path of a machine's browser walk (the command a
// failed path prints, e2e/model-walk.ts), with a Playwright trace, headed when a display exists (DISPLAY), headless
// otherwise. The spec is the e2e/paths-*.spec.ts whose model has that name; MODEL_PATH tells the walk which path to
// play. Extra arguments after the id go to Playwright. `PATH_SPEC_DIR` points at another folder of walk specs (the
// walker's own test uses it with its fixture).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [machine, id, ...rest] = process.argv.slice(2);
if (!machine || !id || !/^[0-9a-f]{8}$/.test(id)) {
  process.stderr.write('usage: npm run test:path -- <machine> <path-id>   (the id is the 8 hex digits a failed path prints)\n');
  process.exit(2);
}

const specDir = resolve(process.env.PATH_SPEC_DIR ?? resolve(import.meta.dirname, '..', 'e2e'));
const spec = readdirSync(specDir)
  .filter((file) => /^paths-.*\.spec\.ts$/.test(file))
  .find((file) => readFileSync(join(specDir, file), 'utf8').includes(`name: '${machine}'`));
if (!spec) {
  process.stderr.write(`No walk spec in ${specDir} has a model named '${machine}'.\n`);
  process.exit(2);
}

const headed = Boolean(process.env.DISPLAY);
const args = ['playwright', 'test', join(specDir, spec), '--trace', 'on', ...(headed ? ['--headed'] : []), ...rest];
process.stdout.write(`${headed ? 'headed' : 'headless (no DISPLAY)'}: MODEL_PATH=${machine}:${id} npx ${args.join(' ')}\n`);
const run = spawnSync(resolve(import.meta.dirname, '..', 'node_modules', '.bin', 'playwright'), args.slice(1), { stdio: 'inherit', env: { ...process.env, MODEL_PATH: `${machine}:${id}` } });
process.stdout.write('The trace of the path: npx playwright show-trace test-results/<test>/trace.zip\n');
process.exit(run.status ?? 1);
