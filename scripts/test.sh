#!/usr/bin/env bash
# Every test of the project: types, unit and model-based tests, API tests, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

step() { printf '\n== %s\n' "$*"; }

step "Type check (tsc)"
npx tsc -p tsconfig.json --noEmit

# Unit, model-based and API tests, and the statecharts check (tests/harness/statecharts.test.ts). The API tests use
# PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it), the embedded database otherwise.
step "Unit, model-based, API and statecharts tests (vitest)"
npx vitest run

step "Model coverage"
npx tsx tests/support/model-coverage.ts
