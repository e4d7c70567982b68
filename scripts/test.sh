#!/usr/bin/env bash
# Every test of the project: types, unit and model-based tests, API tests, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

# Every stage runs even when an earlier one failed, so one run shows everything that is broken; the script exits
# non-zero when any stage failed. Only a missing style system, browser or build stops the stages that need it.
failed=()
step() { printf '\n== %s\n' "$*"; }
run() {
  local name="$1"
  shift
  step "$name"
  if ! "$@"; then
    failed+=("$name")
    return 1
  fi
}

# styled-system/ is generated (and ignored by git); the console's sources import it, so tsc needs it first.
run "Generate the style system (panda codegen)" npx panda codegen --silent || true

run "Type check (tsc)" npx tsc -p tsconfig.json --noEmit || true

# The platform runs ClickHouse servers (the shared qryn storage, managed clusters): Debian's clickhouse-server.
run "ClickHouse server (Debian)" bash scripts/install-clickhouse.sh || true

# Unit, model-based, API and identity tests, and the statecharts check (tests/harness/statecharts.test.ts). Tests
# that start a platform use PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it), the embedded one otherwise.
mkdir -p .tmp
rm -f .tmp/vitest-results.json .tmp/playwright-results.json
run "Unit, model-based, API and statecharts tests (vitest)" npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-results.json || true

if run "Debian's chromium" bash scripts/install-chromium.sh && run "Build the console (npm run build)" npm run build; then
  export PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright-results.json
  run "Browser tests (Playwright, e2e/)" npx playwright test --reporter=list,json || true
fi

step "Model coverage"
npx tsx tests/support/model-coverage.ts

# One plain closing line over both runners (vitest and Playwright), read from their JSON reports; printed last.
summary=$(node -e '
  const fs = require("fs");
  const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
  let passed = 0, failed = 0, skipped = 0;
  const v = read(".tmp/vitest-results.json");
  if (v) { passed += v.numPassedTests; failed += v.numFailedTests; skipped += v.numPendingTests + v.numTodoTests; }
  const p = read(".tmp/playwright-results.json");
  if (p) { passed += p.stats.expected; failed += p.stats.unexpected + p.stats.flaky; skipped += p.stats.skipped; }
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
')

if [ "${#failed[@]}" -gt 0 ]; then
  printf '\nFAILED:\n'
  printf '  - %s\n' "${failed[@]}"
  printf '\n%s\n' "$summary"
  exit 1
fi
printf '\nAll tests passed.\n'
printf "\n%s\n" "$summary"
