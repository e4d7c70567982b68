#!/usr/bin/env bash
# Installs Debian's clickhouse-server and clickhouse-client when /usr/sbin/clickhouse-server is missing: the
# platform runs the shared qryn storage and managed ClickHouse clusters as processes of this binary (docs/clickhouse.md).
set -euo pipefail
# Each managed cluster's servers run in a network namespace of their own (docs/clickhouse.md "Network isolation"),
# made with iproute2's `ip netns`; as root, install it when missing.
if ! command -v ip >/dev/null 2>&1 && [ ! -x /usr/sbin/ip ] && [ "$(id -u)" -eq 0 ]; then
  echo "Installing iproute2 (ip netns, for the managed clusters' network isolation)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
fi
if [ -x /usr/sbin/clickhouse-server ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Managed ClickHouse clusters need /usr/sbin/clickhouse-server: run 'apt-get update && apt-get install -y clickhouse-server clickhouse-client' as root." >&2
  exit 1
fi
echo "Installing Debian's clickhouse-server and clickhouse-client (apt-get)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends clickhouse-server clickhouse-client >/dev/null
# The package's own service is not used: the platform starts its servers with their own configs.
(systemctl disable --now clickhouse-server 2>/dev/null || service clickhouse-server stop 2>/dev/null) || true
/usr/sbin/clickhouse-server --version 2>/dev/null || true
