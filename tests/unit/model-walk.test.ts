// The browser walker itself (e2e/model-walk.ts) on a fixture machine whose check of one state is broken on purpose
// (tests/fixtures/model-walk): the failed path prints the one-line command that replays it and its steps in words,
// and that command plays exactly that path again (and fails the same way). Runs Playwright in Debian's chromium
// without a platform; its working directory is a temporary folder, so no coverage file of the real walks is touched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathId } from '../../e2e/model-map';
import { generateModelPaths } from '../../src/lib/model-paths';
import { switchMachine, switchSamples } from '../fixtures/model-walk/switch-machine';

const root = process.cwd();
const fixtureDir = resolve(root, 'tests/fixtures/model-walk');
const work = mkdtempSync(join(tmpdir(), 'model-walk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const env = { ...process.env, E2E_BASE_URL: 'http://127.0.0.1:9', FIXTURE_OUTPUT_DIR: join(work, 'results'), MODEL_PATH: '', FORCE_COLOR: '0' };
const run = (command: string, args: string[], extra: Record<string, string> = {}) => {
  const result = spawnSync(resolve(root, 'node_modules/.bin', command), args, { cwd: work, env: { ...env, ...extra }, encoding: 'utf8', timeout: 150_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
};

describe('browser walker on a broken fixture path', () => {
  // npm test installs the browser before this runs; without it the walker is untested, which must not pass quietly.
  beforeAll(() => {
    if (!existsSync('/usr/bin/chromium')) throw new Error("Debian's chromium is missing: run bash scripts/install-chromium.sh (npm test does)");
  });
  const paths = generateModelPaths(switchMachine, switchSamples);
  // One path: off → on → off; it fails where it reaches on.
  const broken = paths[0]!;
  const id = pathId('', broken);
  let printed = '';

  it('prints the replay command of the failed path and its steps in words', () => {
    const { status, output } = run('playwright', ['test', '-c', join(fixtureDir, 'playwright.config.ts')]);
    expect(status).not.toBe(0);
    expect(output).toContain(`path ${id} of switch-fixture failed at step 2`);
    printed = /replay: (npm run test:path -- \S+ \S+)/.exec(output)?.[1] ?? '';
    expect(printed).toBe(`npm run test:path -- switch-fixture ${id}`);
    expect(output).toMatch(/1\. starts in "off"\s+✗ 2\. switch\.flip → "on"/);
    expect(output).toContain('aria-pressed');
  });

  it('replays exactly that path with the printed command, with a trace', () => {
    const [machine, pathArg] = printed.split(' -- ')[1]!.split(' ');
    const { status, output } = run('tsx', [resolve(root, 'scripts/test-path.ts'), machine!, pathArg!, '-c', join(fixtureDir, 'playwright.config.ts')], { PATH_SPEC_DIR: fixtureDir });
    expect(status).not.toBe(0);
    expect(output).toContain(`MODEL_PATH=switch-fixture:${id}`);
    expect(output).toContain(`path 1/1 ${id}`);
    expect(output).toContain(`path ${id} of switch-fixture failed at step 2`);
    expect(output).toMatch(/trace\.zip/);
  });
});
