#!/usr/bin/env bash
# Every test of the project: types, unit and model-based tests, API tests, browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npx tsc -p tsconfig.json --noEmit
npx vitest run
