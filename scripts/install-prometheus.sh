#!/usr/bin/env bash
# Installs Debian's prometheus when /usr/bin/prometheus is missing: the PromQL reference test
# (tests/qryn/promql-reference.test.ts) runs the binary itself, with its own config and data folder, and compares its
# answers with qryn's. The package's own service is not used.
set -euo pipefail
if [ -x /usr/bin/prometheus ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "The PromQL reference test needs /usr/bin/prometheus: run 'apt-get update && apt-get install -y prometheus' as root." >&2
  exit 1
fi
echo "Installing Debian's prometheus (apt-get)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d keeps the package's post-install from starting its service (it would listen on :9090 and scrape).
had_policy=false
[ -e /usr/sbin/policy-rc.d ] && had_policy=true
if ! $had_policy; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d; fi
apt-get install -y -qq --no-install-recommends prometheus >/dev/null || { $had_policy || rm -f /usr/sbin/policy-rc.d; exit 1; }
$had_policy || rm -f /usr/sbin/policy-rc.d
(systemctl disable --now prometheus 2>/dev/null || service prometheus stop 2>/dev/null) || true
/usr/bin/prometheus --version 2>/dev/null | head -1 || true
