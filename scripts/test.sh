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

# Unit, model-based, API and identity tests, and the statecharts check (tests/harness/statecharts.test.ts). Tests
# that start a platform use PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it), the embedded one otherwise.
run "Unit, model-based, API and statecharts tests (vitest)" npx vitest run || true

if run "Debian's chromium" bash scripts/install-chromium.sh && run "Build the console (npm run build)" npm run build; then
  run "Browser tests (Playwright, e2e/)" npx playwright test || true
fi

step "Model coverage"
npx tsx tests/support/model-coverage.ts

if [ "${#failed[@]}" -gt 0 ]; then
  printf '\nFAILED:\n'
  printf '  - %s\n' "${failed[@]}"
  exit 1
fi
printf '\nAll tests passed.\n'
