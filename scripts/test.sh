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

# The PromQL reference test compares qryn's answers with a real Prometheus (Debian's 2.42, run as a plain process).
run "Prometheus (Debian)" bash scripts/install-prometheus.sh || true

# The HEP endpoint's UDP socket asks for an 8 MiB receive buffer, which Linux caps at net.core.rmem_max: raised here
# where the run is root (never lowered, never failing the run; docs/hepic.md).
run "UDP receive buffers (net.core.rmem_max)" bash scripts/install-udp-buffers.sh || true

# Unit, model-based, API and identity tests, and the statecharts check (tests/harness/statecharts.test.ts). Tests
# that start a platform use PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it), the embedded one otherwise.
mkdir -p .tmp
rm -f .tmp/vitest-results.json .tmp/playwright-results.json .tmp/vitest.log .tmp/vitest.rc
vitest_stage="Unit, model-based, API and statecharts tests (vitest)"
run_vitest() { npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-results.json; }

# Debian's chromium comes from apt like clickhouse-server above: installed before anything runs beside it, so two
# apt runs never wait on each other's lock.
browser_ready=true
run "Debian's chromium" bash scripts/install-chromium.sh || browser_ready=false

# vitest (one worker) and the browser stages (the build, then one Playwright worker with its platform and chromium)
# each keep about one core busy, so on two cores they run side by side: the run takes about as long as the longer of
# the two instead of their sum. vitest's output is kept in .tmp/vitest.log and printed when it ends, so the two do not
# interleave. TEST_SERIAL=1 runs them one after the other (a machine with one core, or to read vitest's output live).
vitest_pid=""
if [ "${TEST_SERIAL:-}" = "1" ]; then
  run "$vitest_stage" run_vitest || true
else
  step "$vitest_stage: started beside the browser tests, its output follows them (.tmp/vitest.log)"
  # Its own process group (setsid), so that a stopped run ends vitest and every platform its tests started with it.
  export -f run_vitest
  setsid bash -c 'run_vitest >.tmp/vitest.log 2>&1; echo $? >.tmp/vitest.rc' &
  vitest_pid=$!
  trap '[ -n "$vitest_pid" ] && kill -- "-$vitest_pid" 2>/dev/null || true' EXIT
  trap 'exit 130' INT TERM
fi

# The browser benchmarks (bench:bundle, bench:routes, bench:lighthouse) for a moment each, on the build just made, so
# that none breaks unnoticed (docs/testing.md, "Benchmarks"): each starts its own platform (free port, temp data) and
# chromium and stops them; figures over budget are printed, not failing (BENCH_SMOKE=1); an error or a timeout fails
# the stage. `timeout` ends a hung script's whole process group (its chromium included). They sign in with a password,
# so their platforms run without the social sign-in stand-in, whose fixed port the vitest stage's platforms use
# meanwhile (a restart test there failed with EADDRINUSE when a benchmark's platform held it).
browser_bench_smoke() {
  local status=0 bench started
  for bench in "scripts/bench-bundle.ts" "scripts/bench-browser.ts routes" "scripts/bench-lighthouse.ts"; do
    printf -- '-- BENCH_SMOKE=1 tsx %s\n' "$bench"
    started=$SECONDS
    # shellcheck disable=SC2086 # the script and its argument
    SOCIAL_STAND_IN=false BENCH_SMOKE=1 timeout -k 10 240 npx tsx $bench || { echo "FAILED: $bench (exit $?)"; status=1; }
    printf -- '-- %s: %d s\n' "$bench" $((SECONDS - started))
  done
  return "$status"
}

if $browser_ready && run "Build the console (npm run build)" npm run build; then
  export PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/playwright-results.json
  run "Browser tests (Playwright, e2e/)" npx playwright test --reporter=list,json || true
  run "Browser benchmarks, smoke form" browser_bench_smoke || true
fi

if [ -n "$vitest_pid" ]; then
  wait "$vitest_pid" || true
  vitest_pid=""
  step "$vitest_stage"
  cat .tmp/vitest.log
  if [ "$(cat .tmp/vitest.rc 2>/dev/null || echo 1)" != "0" ]; then failed+=("$vitest_stage"); fi
fi

# Both levels for every machine of the catalogue; a machine whose browser walk is missing, failed, or leaves out a
# state or transition without a reason written in its map fails this stage.
run "Model coverage (jsdom and browser)" npx tsx tests/support/model-coverage.ts --check || true

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
  // CI keeps only the end of the output: the failed tests are named here, each with the first line of its error.
  // A property test adds its seed and counterexample, so that the failure can be replayed.
  const first = (m) => {
    const lines = String(m ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").filter((l) => l.trim());
    return [lines[0] ?? "", ...lines.filter((l) => /^\{ seed: |^Counterexample: /.test(l))].join(" ").slice(0, 600);
  };
  const names = [];
  for (const file of v?.testResults ?? []) {
    const rel = String(file.name).replace(process.cwd() + "/", "");
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) names.push(`${rel} › ${t.fullName}: ${first(t.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0) names.push(`${rel}: ${first(file.message).slice(0, 300)}`);
  }
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) {
      if (t.status === "unexpected" || t.status === "flaky") {
        const r = (t.results ?? []).find((x) => x.status !== "passed");
        names.push(`${spec.file} › ${[...path, spec.title].join(" › ")} (${t.status}): ${first(r?.error?.message).slice(0, 300)}`);
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...path, s.title].filter(Boolean));
  };
  for (const s of p?.suites ?? []) walk(s, []);
  for (const n of names) console.log(`  failed: ${n}`);
')

if [ "${#failed[@]}" -gt 0 ]; then
  printf '\nFAILED:\n'
  printf '  - %s\n' "${failed[@]}"
  printf '\n%s\n' "$summary"
  exit 1
fi
printf '\nAll tests passed.\n'
printf "\n%s\n" "$summary"
