#!/usr/bin/env bash
# Raises the system's cap on a socket's receive buffer (net.core.rmem_max) so that the HEP endpoint's UDP socket
# gets the buffer it asks for (HEP_UDP_RECEIVE_BUFFER, 8 MiB by default; docs/hepic.md): Linux caps SO_RCVBUF at
# rmem_max, 212,992 bytes on many systems, and a UDP burst beyond the buffer is dropped by the kernel. Only raised,
# never lowered; only as root. It never fails the run: without permission (a container, a non-root user) the
# platform still starts, with the smaller buffer it logs at startup.
target="${HEP_RMEM_MAX:-16777216}"
file=/proc/sys/net/core/rmem_max
if [ ! -r "$file" ]; then
  exit 0
fi
current="$(cat "$file" 2>/dev/null || echo 0)"
if [ "$current" -ge "$target" ] 2>/dev/null; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "net.core.rmem_max is $current bytes: the HEP endpoint's UDP buffer is capped there (as root: sysctl -w net.core.rmem_max=$target)." >&2
  exit 0
fi
if sysctl -q -w "net.core.rmem_max=$target" >/dev/null 2>&1 || { echo "$target" >"$file"; } 2>/dev/null; then
  echo "net.core.rmem_max raised from $current to $target bytes (the HEP endpoint's UDP receive buffer)."
else
  echo "net.core.rmem_max stays at $current bytes (not permitted here): the HEP endpoint's UDP buffer is capped there." >&2
fi
exit 0
