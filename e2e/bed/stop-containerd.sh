#!/usr/bin/env bash
# Stops what start-containerd.sh started, by PID file only (never by process name): first every
# task and container in our containerd (CRI pods and containers included), then containerd, then
# shims still bound to OUR socket, leftover mounts under $E2E_DIR and the empty cgroup parents
# the e2e tests create (/cri-resmgr-e2e-*). Idempotent.
#
# Environment (optional): E2E_DIR (default /tmp/cri-resmgr-e2e); E2E_PURGE=1 also deletes
# $E2E_DIR (the next start then rebuilds and re-imports the images).
set -uo pipefail

E2E_DIR="${E2E_DIR:-/tmp/cri-resmgr-e2e}"
SOCK="$E2E_DIR/containerd.sock"
PIDF="$E2E_DIR/containerd.pid"
log() { echo "[stop-containerd] $*" >&2; }

pid_of() { # pidfile comm -> pid if alive and matching
  local p
  [ -s "$1" ] || return 1
  p="$(cat "$1")"
  [ -d "/proc/$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && echo "$p"
}
kill_wait() { # pid
  local i
  kill "$1" 2>/dev/null || return 0
  for i in $(seq 1 100); do [ -d "/proc/$1" ] || return 0; sleep 0.1; done
  log "pid $1 ignored SIGTERM, sending SIGKILL"
  kill -9 "$1" 2>/dev/null || true
}

remove_all_containers() {
  local ns t c
  for ns in $(ctr -a "$SOCK" namespaces ls -q 2>/dev/null); do
    for t in $(ctr -a "$SOCK" -n "$ns" tasks ls -q 2>/dev/null); do
      ctr -a "$SOCK" -n "$ns" tasks kill -s SIGKILL "$t" >/dev/null 2>&1 || true
    done
    sleep 0.3
    for t in $(ctr -a "$SOCK" -n "$ns" tasks ls -q 2>/dev/null); do
      ctr -a "$SOCK" -n "$ns" tasks rm -f "$t" >/dev/null 2>&1 || true
    done
    for c in $(ctr -a "$SOCK" -n "$ns" containers ls -q 2>/dev/null); do
      ctr -a "$SOCK" -n "$ns" containers rm "$c" >/dev/null 2>&1 || true
    done
  done
}

if pid="$(pid_of "$PIDF" containerd)"; then
  remove_all_containers
  log "stopping containerd pid $pid"
  kill_wait "$pid"
else
  log "containerd not running (no live PID in $PIDF)"
fi
rm -f "$PIDF" "$SOCK" "$SOCK.ttrpc"

# shims started by our containerd carry "-address $SOCK" on their command line
for d in /proc/[0-9]*; do
  [ "$(cat "$d/comm" 2>/dev/null)" = containerd-shim ] || continue # comm is cut to 15 chars
  tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -qF -- "-address $SOCK " || continue
  log "stopping leftover shim pid ${d#/proc/}"
  kill_wait "${d#/proc/}"
done

# leftover mounts (rootfs overlays, shm) under our directory, deepest first
awk -v d="$E2E_DIR/" 'index($5, d) == 1 {print $5}' /proc/self/mountinfo | sort -r |
  while read -r m; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done

# empty cgroup parents of the e2e pods; rmdir fails (harmlessly) while anything is below
for c in /sys/fs/cgroup/*/cri-resmgr-e2e-*; do
  [ -d "$c" ] && rmdir "$c" 2>/dev/null
done

if [ "${E2E_PURGE:-0}" = 1 ]; then
  rm -rf "$E2E_DIR"
  log "removed $E2E_DIR"
fi
log "stopped"
exit 0
