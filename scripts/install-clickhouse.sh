#!/usr/bin/env bash
# Installs Debian's ClickHouse server and client (18.16 on bookworm) when /usr/sbin/clickhouse-server is missing:
# the platform runs its shared qryn storage (and managed clusters) with it. Needs root (apt-get), as CI has.
set -euo pipefail
if [ -x /usr/sbin/clickhouse-server ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "clickhouse-server is missing and this is not root: install it with 'apt-get install -y clickhouse-server clickhouse-client'." >&2
  exit 1
fi
echo "Installing clickhouse-server and clickhouse-client (apt)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends clickhouse-server clickhouse-client >/dev/null
# The package's own service is not used: the platform starts its servers with their own config and data folders.
if command -v systemctl >/dev/null 2>&1; then systemctl disable --now clickhouse-server >/dev/null 2>&1 || true; fi
/usr/sbin/clickhouse-server --version >/dev/null 2>&1 || test -x /usr/sbin/clickhouse-server
