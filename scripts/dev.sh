#!/usr/bin/env bash
# npm run dev — the platform (API + identity server + demo data) and the Vite dev server, on ONE origin.
#
# The console talks to relative URLs (/api/, /realms/...), so in development Vite serves the page and proxies
# /api, /realms and /dev to the platform. The platform is told that its public URL is Vite's, so the identity
# server's issuer, redirect and cookie checks all see the origin the browser uses.
#
#   CONSOLE_PORT (default 8300)  the address to open: http://127.0.0.1:8300/
#   PLATFORM_PORT (default 8080) where the platform listens behind the proxy
#   DATA_DIR (default .data)     the platform's database folder
set -euo pipefail
cd "$(dirname "$0")/.."

CONSOLE_PORT="${CONSOLE_PORT:-8300}"
PLATFORM_PORT="${PLATFORM_PORT:-8080}"
CONSOLE_ORIGIN="http://127.0.0.1:${CONSOLE_PORT}"

npx panda codegen --silent

PORT="$PLATFORM_PORT" PUBLIC_URL="$CONSOLE_ORIGIN" npx tsx server/main.ts &
platform_pid=$!
# Stop the platform with the dev server (Ctrl-C), and the dev server if the platform dies.
trap 'kill "$platform_pid" 2>/dev/null || true' EXIT INT TERM

PLATFORM_ORIGIN="http://127.0.0.1:${PLATFORM_PORT}" node_modules/.bin/vite --port "$CONSOLE_PORT" --strictPort
