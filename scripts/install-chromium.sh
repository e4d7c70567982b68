#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when /usr/bin/chromium is missing. Playwright's own browser
# download is unreachable here, so playwright.config.ts points at this binary.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Browser tests need /usr/bin/chromium: run 'apt-get update && apt-get install -y chromium' as root." >&2
  exit 1
fi
echo "Installing Debian's chromium (apt-get)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
/usr/bin/chromium --version
