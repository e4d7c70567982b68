#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the API tests in CI and exports TEST_DATABASE_URL. Source it (as root):
#   source scripts/ci-postgres.sh      # then: stop_ci_postgres when done (.ci/run traps it on exit)
# Installs Debian's postgresql when missing, creates a cluster in a fresh temp folder owned by the postgres user,
# listening on a free port on 127.0.0.1 only, with one role (allowed to create databases: each API test run makes
# its own) and one database for the tests.

ci_postgres_main() {
  set -euo pipefail
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "Installing Debian's postgresql (apt-get)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  fi
  local bin
  bin="$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
  local port
  port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  CI_PG_DIR="$(mktemp -d /tmp/ci-postgres.XXXXXX)"
  chown postgres:postgres "$CI_PG_DIR"
  chmod 700 "$CI_PG_DIR"
  export CI_PG_DIR CI_PG_BIN="$bin"
  su postgres -s /bin/sh -c "'$bin/initdb' -D '$CI_PG_DIR/data' -A trust -U postgres --no-sync >'$CI_PG_DIR/initdb.log'"
  su postgres -s /bin/sh -c "'$bin/pg_ctl' -D '$CI_PG_DIR/data' -l '$CI_PG_DIR/server.log' -w \
    -o \"-p $port -k '$CI_PG_DIR' -c listen_addresses=127.0.0.1 -c fsync=off\" start >/dev/null"
  local psql="$bin/psql -X -q -h $CI_PG_DIR -p $port -U postgres -d postgres -v ON_ERROR_STOP=1"
  su postgres -s /bin/sh -c "$psql -c \"CREATE ROLE console_test LOGIN CREATEDB PASSWORD 'console_test'\""
  su postgres -s /bin/sh -c "$psql -c \"CREATE DATABASE console_test OWNER console_test\""
  export TEST_DATABASE_URL="postgres://console_test:console_test@127.0.0.1:$port/console_test"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the tests: $TEST_DATABASE_URL"
}

stop_ci_postgres() {
  if [ -n "${CI_PG_DIR:-}" ] && [ -d "$CI_PG_DIR/data" ]; then
    su postgres -s /bin/sh -c "'$CI_PG_BIN/pg_ctl' -D '$CI_PG_DIR/data' -m fast -w stop >/dev/null" || true
    rm -rf "$CI_PG_DIR"
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "Source this file: source scripts/ci-postgres.sh" >&2
  exit 1
fi
ci_postgres_main
